package perflab.bench.sip;

import gov.nist.core.StackLogger;
import java.util.Properties;

/**
 * JAIN-SIP RI's stack logger, given by gov.nist.javax.sip.STACK_LOGGER: says logging is off and drops everything, so
 * that the RI starts without log4j 1.x and spends nothing on logging. Errors are counted, not printed.
 */
public final class DiscardingStackLogger implements StackLogger {
    @Override public void logStackTrace() { }
    @Override public void logStackTrace(int traceLevel) { }
    @Override public int getLineCount() { return 0; }
    @Override public void logException(Throwable ex) { Uas.count("jain.log.exception"); }
    @Override public void logDebug(String message) { }
    @Override public void logDebug(String message, Exception ex) { }
    @Override public void logTrace(String message) { }
    @Override public void logFatalError(String message) { Uas.count("jain.log.fatal"); }
    @Override public void logError(String message) { Uas.count("jain.log.error"); }
    @Override public boolean isLoggingEnabled() { return false; }
    @Override public boolean isLoggingEnabled(int logLevel) { return false; }
    @Override public void logError(String message, Exception ex) { Uas.count("jain.log.error"); }
    @Override public void logWarning(String message) { Uas.count("jain.log.warning"); }
    @Override public void logInfo(String message) { }
    @Override public void disableLogging() { }
    @Override public void enableLogging() { }
    @Override public void setBuildTimeStamp(String buildTimeStamp) { }
    @Override public void setStackProperties(Properties stackProperties) { }
    @Override public String getLoggerName() { return "discard"; }
}
