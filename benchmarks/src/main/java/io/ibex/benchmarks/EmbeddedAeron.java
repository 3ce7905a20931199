package io.ibex.benchmarks;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * An Aeron media driver embedded in this process, in a directory of its own that is deleted at close (under
 * /dev/shm where Linux has it), and a client connected to it; opens the publications and subscriptions of the
 * Aeron peers on {@code aeron:udp} to a free port of 127.0.0.1 or on {@code aeron:ipc}.
 * <p>
 * In {@code INVOKER} threading mode the driver has no thread: its agents run when the thread that set it up calls
 * {@link #invokeDriver()}, as it must do while it waits for messages, and (through the client) while it waits for
 * the driver's answers. Only that thread may call it.
 */
final class EmbeddedAeron implements AutoCloseable
{
    /**
     * Term length of every publication, UDP and IPC: 4 MiB rather than the driver's 16 MiB (UDP) and 64 MiB (IPC),
     * whose three terms per publication and per image would map 100s of MiB for four streams; a term far above
     * the receiver window (128 KiB) does not change the rate.
     */
    static final int TERM_LENGTH = 4 * 1024 * 1024;

    private static final String LOOPBACK = "127.0.0.1";
    private static final long CONNECT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String channel;
    private final MediaDriver driver;
    private final AgentInvoker driverInvoker;
    private final Aeron aeron;

    /**
     * Starts the driver and connects a client.
     *
     * @param transport {@value Transports#AERON_UDP} or {@value Transports#AERON_IPC}.
     * @param setup     the driver's threading mode.
     */
    EmbeddedAeron(final String transport, final AeronSetup setup)
    {
        channel = switch (transport)
        {
            case Transports.AERON_UDP -> "aeron:udp?endpoint=" + LOOPBACK + ":" + freeUdpPort();
            case Transports.AERON_IPC -> CommonContext.IPC_CHANNEL;
            default -> throw new IllegalArgumentException("transport=" + transport + ": not Aeron's (" +
                Transports.AERON_UDP + ", " + Transports.AERON_IPC + ")");
        };
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(CommonContext.generateRandomDirName())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .threadingMode(setup.threading())
            .publicationTermBufferLength(TERM_LENGTH)
            .ipcTermBufferLength(TERM_LENGTH));
        driverInvoker = driver.sharedAgentInvoker();
        Aeron client = null;
        try
        {
            client = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())
                .driverAgentInvoker(driverInvoker));
        }
        finally
        {
            if (client == null)
            {
                closeDriver();
            }
        }
        aeron = client;
    }

    /**
     * Runs one duty cycle of the driver's agents in {@code INVOKER} threading mode, else nothing.
     *
     * @return the work the driver did.
     */
    int invokeDriver()
    {
        return driverInvoker == null ? 0 : driverInvoker.invoke();
    }

    /**
     * @param streamId the stream to publish.
     * @return a publication of the stream on this transport's channel, for one thread to offer on.
     */
    ExclusivePublication publication(final int streamId)
    {
        return aeron.addExclusivePublication(channel, streamId);
    }

    /**
     * @param streamId the stream to subscribe to.
     * @return a subscription to the stream on this transport's channel.
     */
    Subscription subscription(final int streamId)
    {
        return aeron.addSubscription(channel, streamId);
    }

    /**
     * Waits until each publication has a subscriber and each subscription an image of its publication.
     *
     * @param publications  the publications.
     * @param subscriptions the subscriptions.
     * @throws IllegalStateException if they are not connected within 10 s.
     */
    void awaitConnected(final Publication[] publications, final Subscription[] subscriptions)
    {
        final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NANOS;
        final IdleStrategy idle = new SleepingMillisIdleStrategy(1);
        for (final Publication publication : publications)
        {
            while (!publication.isConnected())
            {
                checkDeadline(deadline, publication.toString());
                idle.idle(invokeDriver());
            }
        }
        for (final Subscription subscription : subscriptions)
        {
            while (!subscription.isConnected())
            {
                checkDeadline(deadline, subscription.toString());
                idle.idle(invokeDriver());
            }
        }
    }

    private void checkDeadline(final long deadline, final String waiting)
    {
        if (System.nanoTime() - deadline > 0)
        {
            throw new IllegalStateException(waiting + " not connected on " + channel + " within " +
                TimeUnit.NANOSECONDS.toSeconds(CONNECT_TIMEOUT_NANOS) + " s");
        }
    }

    /**
     * Tells whether an offer went through; an offer that was turned back for now (back-pressure, no subscriber
     * yet, the driver's administration) is for the caller to retry.
     *
     * @param result      what {@code offer} returned.
     * @param publication the publication offered on.
     * @return true if the message was published.
     * @throws IllegalStateException if the publication is closed or at its maximum position.
     */
    static boolean offered(final long result, final Publication publication)
    {
        if (result > 0)
        {
            return true;
        }
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
        {
            throw new IllegalStateException(publication + ": offer failed with " + Publication.errorString(result));
        }
        return false;
    }

    private static int freeUdpPort()
    {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0)))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no free UDP port on " + LOOPBACK, ex);
        }
    }

    /**
     * Closes the client, stops the driver and deletes its directory.
     */
    @Override
    public void close()
    {
        try
        {
            CloseHelper.close(aeron);
        }
        finally
        {
            closeDriver();
        }
    }

    private void closeDriver()
    {
        final String directory = driver.aeronDirectoryName();
        try
        {
            CloseHelper.close(driver);
        }
        finally
        {
            IoUtil.delete(new File(directory), true); // in case the driver did not get to it
        }
    }
}
