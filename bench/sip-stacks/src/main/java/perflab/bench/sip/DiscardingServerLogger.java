package perflab.bench.sip;

import gov.nist.core.ServerLogger;
import gov.nist.javax.sip.message.SIPMessage;
import java.util.Properties;
import javax.sip.SipStack;

/** JAIN-SIP RI's message logger (gov.nist.javax.sip.SERVER_LOGGER): logs no message. */
public final class DiscardingServerLogger implements ServerLogger {
    @Override public void closeLogFile() { }
    @Override public void logMessage(SIPMessage message, String from, String to, boolean sender, long time) { }
    @Override public void logMessage(SIPMessage message, String from, String to, String status, boolean sender,
                                     long time) { }
    @Override public void logMessage(SIPMessage message, String from, String to, String status, boolean sender) { }
    @Override public void logException(Exception ex) { Uas.count("jain.log.exception"); }
    @Override public void setStackProperties(Properties stackProperties) { }
    @Override public void setSipStack(SipStack sipStack) { }
}
