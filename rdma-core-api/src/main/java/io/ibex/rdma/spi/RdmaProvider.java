package io.ibex.rdma.spi;

import io.ibex.rdma.Provider;

/**
 * A verbs implementation, found with {@link java.util.ServiceLoader}. Implementations must have a public
 * no-argument constructor that does no I/O; {@link #availability()} is where they probe.
 */
public interface RdmaProvider extends Provider
{
    /**
     * @return the rank for automatic choice: among available providers the highest wins (real hardware
     *         before software).
     */
    int priority();

    /**
     * Probes whether the provider can work here (native library loaded, device present).
     *
     * @return whether it is usable, and why not.
     */
    Availability availability();

    /**
     * Whether a provider can be used, with the reason a user needs to fix it.
     *
     * @param available true if usable.
     * @param reason    why (not), in words a user can act on.
     */
    record Availability(boolean available, String reason)
    {
        /**
         * @param reason why it is usable.
         * @return an available result.
         */
        public static Availability yes(final String reason)
        {
            return new Availability(true, reason);
        }

        /**
         * @param reason why it is not usable and what to do.
         * @return an unavailable result.
         */
        public static Availability no(final String reason)
        {
            return new Availability(false, reason);
        }
    }
}
