package perflab.testsupport;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints a line to the build log for every test that did not run, with the reason: Surefire's summary says only
 * "Skipped: 3", so a green build could hide a test that never ran (a missing browser, a collector this JDK
 * lacks). Found by the JUnit Platform through its service file; every module gets it on its test classpath.
 */
public final class SkipReasonPrinter implements TestExecutionListener {

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        print(test, reason); // @Disabled, or a condition such as @EnabledOnOs
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) { // an assumption that did not hold
            print(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted, no reason given"));
        }
    }

    private static void print(TestIdentifier test, String reason) {
        String where = test.getSource()
                .filter(MethodSource.class::isInstance)
                .map(s -> {
                    MethodSource m = (MethodSource) s;
                    return m.getClassName().substring(m.getClassName().lastIndexOf('.') + 1) + "." + m.getMethodName();
                })
                .orElse(test.getLegacyReportingName());
        String name = test.getDisplayName();
        String label = name.startsWith(where.substring(where.lastIndexOf('.') + 1)) ? where : where + " " + name;
        System.out.println("[SKIPPED] " + label + ": " + reason);
    }
}
