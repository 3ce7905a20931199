package io.ibex.rdma.hygiene;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ibex.rdma.Providers;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves kernel RDMA resources behind: compares the counts {@code rdma resource show}
 * prints (pd, cq, qp, cm_id, mr, ctx, ...) after each test with those before it.
 *
 * <p>Registered by extension auto-detection ({@code META-INF/services}), which is off by default: the
 * real-verbs run ({@code softroce/test-real-verbs.sh}) turns it on with
 * {@code -Djunit.jupiter.extensions.autodetection.enabled=true}, so host runs never call the tool.
 * The kernel releases some objects after the destroy call has returned (a connection's cm_id leaves once
 * its disconnect is done), so the check waits a little for the counts to settle before it fails.
 * librdmacm opens every device for the rest of the process the first time the process lists them
 * ({@code rdma_get_devices}), so the selected provider lists its devices before the first baseline.
 */
public final class KernelResourceHygiene implements BeforeEachCallback, AfterEachCallback
{
    private static final Pattern COUNT = Pattern.compile("([a-z_]+) (\\d+)");
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(KernelResourceHygiene.class);
    private static final AtomicBoolean DEVICES_LISTED = new AtomicBoolean();

    @Override
    public void beforeEach(final ExtensionContext context) throws Exception
    {
        if (DEVICES_LISTED.compareAndSet(false, true))
        {
            Providers.select().devices();
        }
        context.getStore(NAMESPACE).put("baseline", counts());
    }

    @Override
    public void afterEach(final ExtensionContext context) throws Exception
    {
        @SuppressWarnings("unchecked")
        final Map<String, Long> baseline = context.getStore(NAMESPACE).get("baseline", Map.class);
        final long deadline = System.nanoTime() + SETTLE_NANOS;
        Map<String, Long> after = counts();
        while (!after.equals(baseline) && System.nanoTime() < deadline)
        {
            Thread.sleep(50); // the kernel finishes teardown on its own work queues; nothing to wait on
            after = counts();
        }
        if (!after.equals(baseline))
        {
            throw new AssertionError("kernel RDMA resources leaked by " + context.getDisplayName()
                + ": `rdma resource show` before " + baseline + ", after " + after);
        }
    }

    /**
     * @return the summed per-type counts over all devices, as {@code rdma resource show} prints them.
     * @throws IOException if the tool cannot run or fails.
     * @throws InterruptedException if interrupted while it runs.
     */
    static Map<String, Long> counts() throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder("rdma", "resource", "show").redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0)
        {
            throw new IOException("`rdma resource show` failed: " + output.strip());
        }
        final Map<String, Long> counts = new TreeMap<>();
        for (final String line : output.split("\n"))
        {
            final int afterDevice = line.indexOf(": ", line.indexOf(": ") + 1);
            final Matcher matcher = COUNT.matcher(afterDevice < 0 ? "" : line.substring(afterDevice));
            while (matcher.find())
            {
                counts.merge(matcher.group(1), Long.parseLong(matcher.group(2)), Long::sum);
            }
        }
        return counts;
    }
}
