package io.ibex.rdma.provider.disni;

import io.ibex.rdma.Providers;
import io.ibex.rdma.spi.RdmaProvider;

/**
 * Prints what a fresh JVM's disni provider says about itself, and which provider automatic choice takes, for
 * the tests run through {@link ProbeJvm}: the JVM flags and class path under test are per JVM.
 */
public final class AvailabilityProbe
{
    private AvailabilityProbe()
    {
    }

    /**
     * Prints {@code available=true|false}, {@code reason=...}, {@code loaded=FILE} and {@code auto=NAME}.
     *
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final RdmaProvider.Availability availability = new DisniProvider().availability();
        System.out.println("available=" + availability.available());
        System.out.println("reason=" + availability.reason());
        System.out.println("loaded=" + NativeLibrary.loaded());
        System.out.println("auto=" + Providers.select(Providers.AUTO).name());
    }
}
