package io.ibex.rdma.provider.soft;

import io.ibex.rdma.conformance.Await;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Tees System.err, where slf4j-simple writes (it looks System.err up at every line), to look for a line.
 */
public final class LogCapture implements AutoCloseable
{
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    public LogCapture()
    {
        System.setErr(new PrintStream(new OutputStream()
        {
            @Override
            public void write(final int b)
            {
                original.write(b);
                captured.write(b);
            }

            @Override
            public void write(final byte[] bytes, final int offset, final int length)
            {
                original.write(bytes, offset, length);
                captured.write(bytes, offset, length);
            }
        }, true, StandardCharsets.UTF_8));
    }

    /**
     * Waits up to 10 s for {@code text} to be logged.
     */
    public void await(final String text)
    {
        Await.until(() -> text().contains(text), "a log line with '" + text + "'");
    }

    /** @return everything logged since this capture began. */
    public String text()
    {
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close()
    {
        System.setErr(original);
    }
}
