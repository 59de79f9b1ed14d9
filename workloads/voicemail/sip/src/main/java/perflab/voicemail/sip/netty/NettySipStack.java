package perflab.voicemail.sip.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import perflab.voicemail.sip.Body;
import perflab.voicemail.sip.ClientTransaction;
import perflab.voicemail.sip.Dialog;
import perflab.voicemail.sip.DialogState;
import perflab.voicemail.sip.Header;
import perflab.voicemail.sip.NewRequest;
import perflab.voicemail.sip.RequestHandler;
import perflab.voicemail.sip.SerialExecutor;
import perflab.voicemail.sip.SipStack;
import perflab.voicemail.sip.SipStackConfig;
import perflab.voicemail.sip.StrayDialogs;
import perflab.voicemail.sip.TransactionTimers;

/**
 * perflab's SIP stack: one Netty UDP channel on one I/O thread, which owns every transaction, dialog and timer
 * (Netty's scheduler on that same loop), so the hot path takes no lock and makes no thread hop but the one to the
 * application's executor. Messages are written on the application's threads and only sent on the I/O thread.
 * Whatever arrives, the I/O loop answers it (400, 405, 481, 500, 501), absorbs it (a retransmission) or drops it,
 * and counts it; no exception leaves {@link #receive}.
 */
public final class NettySipStack implements SipStack {
    private final SipStackConfig config;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final Channel channel;
    private final InetSocketAddress local;
    private final String hostPort;
    private final String allow;
    private final StackCounters counters = new StackCounters();
    private final Map<String, ClientTx> clients = new HashMap<>();
    private final Map<String, ServerTx> servers = new HashMap<>();
    private final Map<String, DialogImpl> dialogs = new HashMap<>();
    private final Map<String, PendingSubscription> pendingSubscriptions = new HashMap<>();
    private volatile StrayDialogs strays;

    /** A SUBSCRIBE waiting for its answer, which a NOTIFY may overtake (RFC 6665 section 4.1.2.4). */
    private record PendingSubscription(ClientTx subscribe, String event) {
    }

    private NettySipStack(SipStackConfig config) {
        this.config = config;
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("sip-io", true));
        this.loop = group.next();
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(NioDatagramChannel.class)
                // one byte more than the cap: a datagram that fills the buffer was longer than allowed
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(config.maxDatagram() + 1))
                .option(ChannelOption.SO_RCVBUF, 4 << 20)
                .option(ChannelOption.SO_SNDBUF, 4 << 20)
                .handler(new Inbound());
        try {
            this.channel = bootstrap.bind(config.host(), config.port()).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
            throw e;
        }
        this.local = (InetSocketAddress) channel.localAddress();
        this.hostPort = (config.host().indexOf(':') >= 0 ? "[" + config.host() + "]" : config.host()) + ":"
                + local.getPort();
        this.allow = String.join(", ", new TreeSet<>(config.allowedMethods()));
    }

    /** Binds the UDP port and starts the I/O thread. */
    public static NettySipStack open(SipStackConfig config) {
        return new NettySipStack(config);
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    SipStackConfig config() {
        return config;
    }

    TransactionTimers timers() {
        return config.timers();
    }

    static boolean createsDialog(String method) {
        return method.equals("INVITE") || method.equals("SUBSCRIBE");
    }

    static String dialogKey(String callId, String localTag, String remoteTag) {
        return callId + '|' + localTag + '|' + remoteTag;
    }

    /** RFC 3261 section 18.2.2 with RFC 3581: to the source when rport was asked for, else to the sent-by port. */
    static InetSocketAddress responseAddress(ParsedRequest request, InetSocketAddress source) {
        return request.via.rport() || request.via.port() < 0 ? source
                : new InetSocketAddress(source.getAddress(), request.via.port());
    }

    String via(String branch) {
        return "SIP/2.0/UDP " + hostPort + ";branch=" + branch + ";rport";
    }

    /** Our Contact for a URI's user part: {@code <sip:user@host:port>}. */
    String contact(String uri) {
        String user = HeaderValues.user(uri);
        return user == null ? "<sip:" + hostPort + ">" : "<sip:" + user + "@" + hostPort + ">";
    }

    // ---- the application's side (any thread) ----

    @Override
    public ClientTransaction send(NewRequest request, Executor callbacks, RequestHandler inDialog) {
        String tag = Ids.tag();
        String branch = Ids.branch();
        String method = request.method();
        MessageWriter.RequestLine line = new MessageWriter.RequestLine(method, request.requestUri(), via(branch),
                "<" + request.fromUri() + ">;tag=" + tag, "<" + request.toUri() + ">", Ids.callId(config.host()), 1,
                List.of(), createsDialog(method) ? contact(request.fromUri()) : null);
        byte[] bytes = MessageWriter.request(line, request.headers(), request.body(), config.userAgent());
        ClientTx tx = method.equals("INVITE")
                ? new InviteClientTx(this, line, branch, bytes, request.destination(), callbacks, inDialog)
                : new NonInviteClientTx(this, line, branch, bytes, request.destination(), callbacks, inDialog, null);
        String event = method.equals("SUBSCRIBE") ? HeaderValues.token(find(request.headers(), "Event")) : null;
        onLoop(() -> {
            clients.put(branch, tx);
            if (event != null) {
                pendingSubscriptions.put(line.callId() + '|' + tag, new PendingSubscription(tx, event));
            }
            tx.start();
        });
        return tx;
    }

    private static String find(List<Header> headers, String name) {
        for (Header h : headers) {
            if (h.name().equalsIgnoreCase(name)) {
                return h.value();
            }
        }
        return null;
    }

    ClientTransaction sendInDialog(DialogImpl dialog, MessageWriter.RequestLine line, List<Header> headers, Body body,
                                   InetSocketAddress destination) {
        if (line.method().equals("INVITE")) {
            throw new IllegalArgumentException("re-INVITE is not supported");
        }
        String branch = HeaderValues.param(line.via(), "branch");
        byte[] bytes = MessageWriter.request(line, headers, body, config.userAgent());
        ClientTx tx = new NonInviteClientTx(this, line, branch, bytes, destination, dialog.executor(), null, dialog);
        onLoop(() -> {
            clients.put(branch, tx);
            tx.start();
        });
        return tx;
    }

    @Override
    public Dialog adopt(DialogState state, Executor callbacks, RequestHandler handler) {
        DialogImpl dialog = DialogImpl.adopted(this, state, callbacks, handler);
        onLoop(() -> {
            register(dialog);
            counters.add("sip.dialogs.adopted");
        });
        return dialog;
    }

    @Override
    public void strays(StrayDialogs newStrays) {
        this.strays = newStrays;
    }

    @Override
    public Map<String, Long> counters() {
        if (loop.inEventLoop()) {
            return snapshot();
        }
        try {
            return loop.submit(this::snapshot).get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                 | java.util.concurrent.RejectedExecutionException e) {
            return Map.of();
        }
    }

    private Map<String, Long> snapshot() {
        return counters.snapshot(clients.size() + servers.size(), dialogs.size());
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 200, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    // ---- the I/O thread ----

    void onLoop(Runnable task) {
        if (loop.inEventLoop()) {
            guarded(task);
        } else {
            loop.execute(() -> guarded(task));
        }
    }

    ScheduledFuture<?> schedule(Runnable task, long millis) {
        return loop.schedule(() -> guarded(task), millis, TimeUnit.MILLISECONDS);
    }

    private void guarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            counters.add("sip.errors.internal");
        }
    }

    private final class Inbound extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            try {
                receive(packet.content(), packet.sender());
            } catch (RuntimeException e) {
                counters.dropped("internal-error");
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // e.g. ICMP port unreachable from a peer that went away: counted, the channel stays open
            counters.add("sip.errors.io");
        }
    }

    private void receive(ByteBuf content, InetSocketAddress sender) {
        long received = System.nanoTime();
        counters.add("sip.datagrams.in");
        int length = content.readableBytes();
        if (length > config.maxDatagram()) {
            counters.dropped("oversized");
            return;
        }
        if (isKeepAlive(content)) {
            counters.dropped("keep-alive");
            return;
        }
        byte[] data = new byte[length];
        content.getBytes(content.readerIndex(), data);
        ParsedMessage message;
        try {
            message = MessageParser.parse(data, length);
        } catch (MessageParser.Unframeable e) {
            counters.dropped(e.reason);
            return;
        }
        message.receivedNanos = received;
        if (message instanceof ParsedResponse response) {
            onResponse(response);
        } else {
            onRequest((ParsedRequest) message, sender);
        }
    }

    /** RFC 5626's CRLF keep-alives (and empty datagrams): nothing to answer. */
    private static boolean isKeepAlive(ByteBuf content) {
        for (int i = content.readerIndex(); i < content.writerIndex(); i++) {
            byte b = content.getByte(i);
            if (b != '\r' && b != '\n' && b != ' ') {
                return false;
            }
        }
        return true;
    }

    private void onRequest(ParsedRequest request, InetSocketAddress source) {
        String method = request.method();
        counters.requestIn(method);
        if (request.problem() != null) {
            // a response needs the request's Via, From, To, Call-ID and CSeq to be copied; an ACK gets none
            if (request.via == null || request.header("from") == null || request.header("to") == null
                    || request.header("call-id") == null || request.header("cseq") == null || method.equals("ACK")) {
                counters.dropped("unanswerable-" + request.problem());
            } else {
                reject(request, source, 400, "Bad Request", request.problem(), List.of());
            }
            return;
        }
        String key = request.via.branch() + '|' + request.via.sentBy() + '|'
                + (method.equals("ACK") ? "INVITE" : method);
        if (method.equals("ACK")) {
            onAck(request, key);
            return;
        }
        ServerTx existing = servers.get(key);
        if (existing != null) {
            existing.onRetransmission();
            return;
        }
        if (!StackCounters.KNOWN_METHODS.contains(method)) {
            reject(request, source, 501, "Not Implemented", "unknown-method", List.of(new Header("Allow", allow)));
            return;
        }
        if (!config.allowedMethods().contains(method)) {
            reject(request, source, 405, "Method Not Allowed", "method-not-allowed",
                    List.of(new Header("Allow", allow)));
            return;
        }
        if (request.toTag != null) {
            onInDialogRequest(request, source, key, 0);
            return;
        }
        if (method.equals("NOTIFY")) {
            reject(request, source, 481, "Subscription Does Not Exist", "no-subscription", List.of());
            return;
        }
        ServerTx tx = newServerTx(key, request, source, new SerialExecutor(config.callbacks()), null);
        tx.executor.execute(() -> config.handler().onRequest(tx));
    }

    /** How often a stray request waits a moment for the dialogs the application is adopting from another thread. */
    private static final int ADOPTION_WAITS = 20;
    private static final long ADOPTION_WAIT_MS = 10;

    private void onInDialogRequest(ParsedRequest request, InetSocketAddress source, String key, int waited) {
        ServerTx existing = waited == 0 ? null : servers.get(key);
        if (existing != null) {
            existing.onRetransmission(); // a retransmission that waited too, after the first got its transaction
            return;
        }
        DialogImpl dialog = dialogs.get(dialogKey(request.callId, request.toTag, request.fromTag));
        if (dialog == null && request.method().equals("NOTIFY")) {
            dialog = earlyNotify(request, source);
        }
        if (dialog == null && askStrays(request, StrayDialogs::adopt)) {
            dialog = dialogs.get(dialogKey(request.callId, request.toTag, request.fromTag));
            if (dialog == null && waited < ADOPTION_WAITS) {
                // the application holds the user's call, and its dialogs are on their way here from another thread
                // (a take-over the web side started a moment ago): a 481 now would end a call that is being
                // adopted; the request is looked at again shortly, after the registration queued before it
                schedule(() -> onInDialogRequest(request, source, key, waited + 1), ADOPTION_WAIT_MS);
                return;
            }
        }
        if (dialog == null && askStrays(request, StrayDialogs::servedElsewhere)) {
            reject(request, source, 503, "Dialog Served Elsewhere", "served-elsewhere", List.of());
            return;
        }
        if (dialog == null) {
            reject(request, source, 481, "Call/Transaction Does Not Exist", "no-dialog", List.of());
            return;
        }
        if (dialog.remoteCSeq >= 0 && request.cseq <= dialog.remoteCSeq) {
            // RFC 3261 section 12.2.2: an old or repeated CSeq on a new transaction
            reject(request, source, 500, "Server Internal Error", "cseq-out-of-order", List.of());
            return;
        }
        dialog.remoteCSeq = request.cseq;
        ServerTx tx = newServerTx(key, request, source, dialog.executor(), dialog);
        RequestHandler handler = dialog.handler() != null ? dialog.handler() : config.handler();
        dialog.executor().execute(() -> handler.onRequest(tx));
    }

    /**
     * Asks the application ({@link StrayDialogs}) about a request in a dialog not held here, by the user part of its
     * Request-URI: {@link StrayDialogs#adopt} (whether it holds the user's call here, adopted from its copy now or a
     * moment ago) or {@link StrayDialogs#servedElsewhere}. False when nobody is asked or the application failed.
     */
    private boolean askStrays(ParsedRequest request, java.util.function.BiPredicate<StrayDialogs, String> question) {
        StrayDialogs asked = strays;
        String user = asked == null ? null : HeaderValues.user(request.requestUri());
        if (user == null) {
            return false;
        }
        try {
            return question.test(asked, user);
        } catch (RuntimeException e) {
            counters.add("sip.errors.internal");
            return false;
        }
    }

    private DialogImpl earlyNotify(ParsedRequest notify, InetSocketAddress source) {
        PendingSubscription pending = pendingSubscriptions.get(notify.callId + '|' + notify.toTag);
        String event = HeaderValues.token(notify.header("event"));
        if (pending == null || event == null || !event.equalsIgnoreCase(pending.event())) {
            return null;
        }
        DialogImpl dialog = DialogImpl.fromEarlyNotify(this, pending.subscribe(), notify, source);
        register(dialog);
        pending.subscribe().dialog(dialog);
        counters.add("sip.notify-before-2xx");
        return dialog;
    }

    private void onAck(ParsedRequest ack, String key) {
        ServerTx tx = servers.get(key);
        if (tx instanceof InviteServerTx invite) {
            invite.onErrorAck();
            return;
        }
        DialogImpl dialog = ack.toTag == null ? null : dialogs.get(dialogKey(ack.callId, ack.toTag, ack.fromTag));
        if (dialog == null) {
            counters.dropped("ack-without-dialog");
            return;
        }
        dialog.onAck(ack);
    }

    private ServerTx newServerTx(String key, ParsedRequest request, InetSocketAddress source, Executor executor,
                                 DialogImpl dialog) {
        if (request.method().equals("INVITE")) {
            InviteServerTx invite = new InviteServerTx(this, key, request, source, executor, dialog);
            servers.put(key, invite);
            invite.trying();
            return invite;
        }
        ServerTx tx = new NonInviteServerTx(this, key, request, source, executor, dialog);
        servers.put(key, tx);
        return tx;
    }

    /**
     * The stack's own error answers, stateless: a retransmission of the same bad request gets the same answer
     * again, and a flood of them keeps no state.
     */
    private void reject(ParsedRequest request, InetSocketAddress source, int status, String reason, String why,
                        List<Header> headers) {
        counters.rejected(why);
        byte[] bytes = MessageWriter.response(request, source.getAddress().getHostAddress(), source.getPort(),
                status, reason, request.toTag == null ? Ids.tag() : null, null, headers, Body.NONE,
                config.userAgent());
        sendResponse(bytes, responseAddress(request, source), status);
    }

    private void onResponse(ParsedResponse response) {
        counters.responseIn(response.status());
        if (response.problem() != null) {
            counters.dropped("bad-response-" + response.problem());
            return;
        }
        ClientTx tx = clients.get(response.via.branch());
        if (tx == null || !tx.line.method().equals(response.cseqMethod)) {
            if (response.isSuccess() && "INVITE".equals(response.cseqMethod) && retransmitted2xx(response)) {
                counters.add("sip.retransmissions.absorbed");
                return;
            }
            counters.dropped("no-transaction");
            return;
        }
        tx.onResponse(response);
    }

    /** A 2xx to one of our INVITEs whose transaction has gone: the dialog repeats its ACK. */
    boolean retransmitted2xx(ParsedResponse response) {
        DialogImpl dialog = dialogs.get(dialogKey(response.callId, response.fromTag, response.toTag));
        if (dialog == null) {
            return false;
        }
        dialog.onRetransmitted2xx();
        return true;
    }

    /** A client transaction's final response (null: it timed out): dialogs are made or ended here. */
    void onClientFinal(ClientTx tx, ParsedResponse response) {
        String method = tx.line.method();
        if (tx.owner == null && method.equals("SUBSCRIBE")) {
            pendingSubscriptions.remove(tx.line.callId() + '|' + HeaderValues.param(tx.line.from(), "tag"));
        }
        if (tx.owner != null && method.equals("BYE")) {
            tx.owner.terminate();
        }
        if (response == null || tx.owner != null || !createsDialog(method) || !response.isSuccess()
                || response.toTag == null) {
            return;
        }
        DialogImpl dialog = dialogs.get(dialogKey(tx.line.callId(), HeaderValues.param(tx.line.from(), "tag"),
                response.toTag));
        if (dialog == null) {
            dialog = DialogImpl.asClient(this, tx, response);
            register(dialog);
        }
        tx.dialog(dialog);
    }

    void register(DialogImpl dialog) {
        dialogs.put(dialog.key(), dialog);
    }

    void unregister(DialogImpl dialog) {
        dialogs.remove(dialog.key(), dialog);
    }

    void removeClient(ClientTx tx) {
        clients.remove(tx.branch, tx);
    }

    void removeServer(ServerTx tx) {
        servers.remove(tx.key, tx);
    }

    void sendRequest(byte[] bytes, InetSocketAddress to, String method) {
        counters.requestOut(method);
        write(bytes, to);
    }

    void sendResponse(byte[] bytes, InetSocketAddress to, int status) {
        counters.responseOut(status);
        write(bytes, to);
    }

    void resend(byte[] bytes, InetSocketAddress to) {
        counters.add("sip.retransmissions.sent");
        write(bytes, to);
    }

    private void write(byte[] bytes, InetSocketAddress to) {
        counters.add("sip.datagrams.out");
        channel.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(bytes), to), channel.voidPromise());
    }

    void countAbsorbed() {
        counters.add("sip.retransmissions.absorbed");
    }

    void countAbsorbedIf(boolean absorbed) {
        if (absorbed) {
            countAbsorbed();
        }
    }

    void countTimeout() {
        counters.add("sip.timeouts");
    }

    void countAckTimeout() {
        counters.add("sip.ack-timeouts");
    }

    void countUnanswered() {
        counters.add("sip.unanswered");
    }

    /** For tests: the sizes of the stack's tables, on the I/O thread. */
    List<Integer> tableSizes() {
        try {
            return loop.submit(() -> new ArrayList<>(List.of(clients.size(), servers.size(), dialogs.size(),
                    pendingSubscriptions.size()))).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
