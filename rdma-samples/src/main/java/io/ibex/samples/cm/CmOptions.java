package io.ibex.samples.cm;

import io.ibex.rdma.Provider;
import io.ibex.rdma.Providers;
import picocli.CommandLine.Option;

/**
 * The options every rdma_cm program takes besides the C tool's own: the provider, and how long any one step
 * (a connection-manager event, a completion) may take. The device is the one the connection manager resolves
 * the address to, as in the C tools, so there is no {@code -d}.
 */
public final class CmOptions
{
    @Option(names = "--provider", paramLabel = "NAME",
        description = "RDMA provider: soft, disni or auto (default: -D" + Providers.PROPERTY + ", else $" +
            Providers.ENV + ", else auto).")
    private String providerName;

    @Option(names = "--timeout-ms", paramLabel = "MILLIS", defaultValue = "30000",
        description = "How long to wait for each connection-manager event and each completion " +
            "(default: ${DEFAULT-VALUE}).")
    private long timeoutMillis;

    /**
     * @return the provider named by {@code --provider}, else the one {@link Providers#select()} chooses.
     */
    public Provider provider()
    {
        return providerName == null ? Providers.select() : Providers.select(providerName);
    }

    /**
     * @return the bound of every wait, in milliseconds.
     * @throws IllegalArgumentException if it is not positive.
     */
    public long timeoutMillis()
    {
        if (timeoutMillis <= 0)
        {
            throw new IllegalArgumentException("--timeout-ms " + timeoutMillis + " must be > 0");
        }
        return timeoutMillis;
    }
}
