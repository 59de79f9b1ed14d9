package perflab.bench.sip;

import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import javax.sip.DialogTerminatedEvent;
import javax.sip.IOExceptionEvent;
import javax.sip.ListeningPoint;
import javax.sip.RequestEvent;
import javax.sip.ResponseEvent;
import javax.sip.ServerTransaction;
import javax.sip.SipFactory;
import javax.sip.SipListener;
import javax.sip.SipProvider;
import javax.sip.SipStack;
import javax.sip.TimeoutEvent;
import javax.sip.TransactionTerminatedEvent;
import javax.sip.address.AddressFactory;
import javax.sip.header.ContactHeader;
import javax.sip.header.ContentTypeHeader;
import javax.sip.header.HeaderFactory;
import javax.sip.header.ToHeader;
import javax.sip.message.MessageFactory;
import javax.sip.message.Request;
import javax.sip.message.Response;

/**
 * The same stateful UAS as {@link NettyUas} on the JAIN-SIP reference implementation 1.3.0-91: INVITE gets 180 then
 * 200 with the SDP answer (the RI sends 100 Trying only when the listener has not answered within 200 ms), the ACK
 * reaches the listener and is dropped, BYE gets 200, OPTIONS 200, anything else 405 (statelessly). Automatic dialog
 * support on; a re-entrant listener run on the RI's pool of WORKERS UDP threads; the logging off through our own
 * STACK_LOGGER and SERVER_LOGGER (no log4j). MAX_SERVER_TRANSACTIONS is raised from its 5,000 so that the RI's load
 * shedding does not drop INVITEs while 32 s of completed BYE transactions (Timer J) sit in its table at 1,000
 * calls/s.
 *
 * <p>Usage: JainSipUas PORT [WORKERS]
 */
public final class JainSipUas implements SipListener {
    private final SipProvider provider;
    private final MessageFactory messages;
    private final HeaderFactory headers;
    private final ContactHeader contact;
    private final ContentTypeHeader sdpType;

    private JainSipUas(SipProvider provider, MessageFactory messages, HeaderFactory headers, AddressFactory addresses,
                       int port) throws Exception {
        this.provider = provider;
        this.messages = messages;
        this.headers = headers;
        this.contact = headers.createContactHeader(addresses.createAddress("sip:uas@127.0.0.1:" + port));
        this.sdpType = headers.createContentTypeHeader("application", "sdp");
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        Properties p = new Properties();
        p.setProperty("javax.sip.STACK_NAME", "jain-uas");
        p.setProperty("javax.sip.AUTOMATIC_DIALOG_SUPPORT", "on");
        p.setProperty("gov.nist.javax.sip.STACK_LOGGER", DiscardingStackLogger.class.getName());
        p.setProperty("gov.nist.javax.sip.SERVER_LOGGER", DiscardingServerLogger.class.getName());
        p.setProperty("gov.nist.javax.sip.THREAD_POOL_SIZE", Integer.toString(workers));
        p.setProperty("gov.nist.javax.sip.REENTRANT_LISTENER", "true");
        p.setProperty("gov.nist.javax.sip.MAX_SERVER_TRANSACTIONS", "1000000");
        p.setProperty("gov.nist.javax.sip.RECEIVE_UDP_BUFFER_SIZE", Integer.toString(4 << 20));
        p.setProperty("gov.nist.javax.sip.SEND_UDP_BUFFER_SIZE", Integer.toString(4 << 20));
        SipFactory factory = SipFactory.getInstance();
        factory.setPathName("gov.nist");
        SipStack stack = factory.createSipStack(p);
        ListeningPoint point = stack.createListeningPoint("127.0.0.1", port, ListeningPoint.UDP);
        SipProvider provider = stack.createSipProvider(point);
        JainSipUas uas = new JainSipUas(provider, factory.createMessageFactory(), factory.createHeaderFactory(),
                factory.createAddressFactory(), point.getPort());
        provider.addSipListener(uas);
        Uas.serve("jain-sip", point.getPort(), stack::stop);
    }

    @Override
    public void processRequest(RequestEvent event) {
        Request request = event.getRequest();
        String method = request.getMethod();
        try {
            switch (method) {
                case Request.INVITE -> {
                    Uas.count("INVITE");
                    ServerTransaction tx = transaction(event);
                    String tag = Long.toHexString(ThreadLocalRandom.current().nextLong());
                    Response ringing = messages.createResponse(Response.RINGING, request);
                    ((ToHeader) ringing.getHeader(ToHeader.NAME)).setTag(tag);
                    ringing.addHeader(contact);
                    tx.sendResponse(ringing);
                    Response ok = messages.createResponse(Response.OK, request, sdpType, Uas.SDP.getBytes());
                    ((ToHeader) ok.getHeader(ToHeader.NAME)).setTag(tag);
                    ok.addHeader(contact);
                    tx.sendResponse(ok);
                }
                case Request.ACK -> Uas.count("ACK");
                case Request.BYE -> {
                    Uas.count("BYE");
                    transaction(event).sendResponse(messages.createResponse(Response.OK, request));
                }
                case Request.OPTIONS -> transaction(event).sendResponse(messages.createResponse(Response.OK, request));
                default -> provider.sendResponse(messages.createResponse(Response.METHOD_NOT_ALLOWED, request));
            }
        } catch (Exception e) {
            Uas.count("listener." + method + "." + e.getClass().getSimpleName());
        }
    }

    private ServerTransaction transaction(RequestEvent event) throws Exception {
        ServerTransaction tx = event.getServerTransaction();
        return tx != null ? tx : provider.getNewServerTransaction(event.getRequest());
    }

    @Override
    public void processResponse(ResponseEvent event) {
        Uas.count("response");
    }

    @Override
    public void processTimeout(TimeoutEvent event) {
        Uas.count("timeout");
    }

    @Override
    public void processIOException(IOExceptionEvent event) {
        Uas.count("io-exception");
    }

    @Override
    public void processTransactionTerminated(TransactionTerminatedEvent event) {
    }

    @Override
    public void processDialogTerminated(DialogTerminatedEvent event) {
    }
}
