package io.ibex.samples.cm;

import io.ibex.rdma.Providers;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.verbs.MemoryRegion;

import java.net.InetSocketAddress;

/**
 * A JVM that plays rping's client on the soft provider up to the server's first "go ahead", then dies
 * ({@link Runtime#halt}) in the middle of the ping, as a client whose process is killed.
 */
public final class RpingDyingClient
{
    private static final int SIZE = 64;

    private RpingDyingClient()
    {
    }

    /**
     * @param args the server's loopback port.
     */
    public static void main(final String[] args)
    {
        final ResourceStack resources = new ResourceStack();
        final CmSequence cm = new CmSequence(
            resources.push(Providers.select("soft").createEventChannel()), 10_000, event -> { });
        final CmId id = resources.push(cm.channel().createId(PortSpace.TCP));
        cm.resolve(id, null, new InetSocketAddress(CmPrograms.LOOPBACK, Integer.parseInt(args[0])));
        final RpingEndpoint endpoint = RpingEndpoint.create(id, SIZE, cm, resources, line -> { });
        final MemoryRegion source = endpoint.registerBuffer(SIZE, resources);
        endpoint.postReceive();
        cm.connect(id, ConnParam.of(null));
        RpingPattern.fill(source.buffer(), 0, SIZE);
        endpoint.advertise(source, SIZE);
        endpoint.awaitMessage("the server's go-ahead after its RDMA READ");
        System.out.println("dying after the server's first go-ahead");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
