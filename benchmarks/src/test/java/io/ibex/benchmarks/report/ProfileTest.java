package io.ibex.benchmarks.report;

import io.ibex.samples.perf.ThreadSamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.Deflater;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Profile} on a recording the test makes ({@link #record}): a thread in Java code, a thread at work in a
 * native method (zlib's deflate) and a thread asleep in a native accept, which is a wait and so left out.
 */
class ProfileTest
{
    static final String SPINNER = "test-spinner";
    static final String DEFLATER = "test-deflater";
    static final String WAITER = "test-waiter";
    private static final long RECORDED_NANOS = 1_500_000_000L;

    @TempDir
    Path temp;

    @Test
    void countsJavaAndNativeSamplesOfWorkingThreadsAndLeavesWaitsOut() throws Exception
    {
        final Profile profile = Profile.read(record(temp.resolve("three-threads.jfr")));

        assertEquals("three-threads", profile.name());
        assertTrue(profile.javaCount() > 0, "the spinner in Java: " + profile);
        assertTrue(profile.nativeCount() > 0, "the deflater in native code: " + profile);
        assertTrue(profile.waiting() > 0, "the waiter in accept: " + profile);
        assertTrue(what(profile.threads()).contains(SPINNER), profile.threads().toString());
        assertTrue(what(profile.threads()).contains(DEFLATER), profile.threads().toString());
        assertFalse(what(profile.threads()).contains(WAITER), "a wait is not work: " + profile.threads());
        assertTrue(what(profile.frames()).contains("Deflater.deflateBytesBytes" + Profile.NATIVE_MARK),
            profile.frames().toString());
        assertTrue(what(profile.frames()).stream().noneMatch(frame -> frame.startsWith("Net.accept")),
            profile.frames().toString());
        assertTrue(what(profile.ibexFrames()).contains("ProfileTest.spin"), "the innermost io.ibex frame: " +
            profile.ibexFrames());
        assertTrue(what(profile.ibexFrames()).contains("ProfileTest.deflate"), "under the JDK's frames: " +
            profile.ibexFrames());
        for (final List<Profile.Share> shares : List.of(profile.threads(), profile.frames(), profile.ibexFrames()))
        {
            assertEquals(profile.working(), shares.stream().mapToInt(Profile.Share::samples).sum(), "every " +
                "working sample counted once in each table");
            for (int i = 1; i < shares.size(); i++)
            {
                assertTrue(shares.get(i - 1).samples() >= shares.get(i).samples(), "most first: " + shares);
            }
        }
    }

    @Test
    void framesAreNamedByClassAndMethod()
    {
        assertEquals("IbexNative.pollCq", Profile.shortName("io.ibex.rdma.provider.disni.IbexNative.pollCq"));
        assertEquals("ChannelPingPong$Echo.doWork", Profile.shortName("io.ibex.benchmarks.ChannelPingPong$Echo.doWork"));
        assertEquals("Top.method", Profile.shortName("Top.method"));
    }

    @Test
    void aFileThatIsNotARecordingIsRefusedByName() throws IOException
    {
        final Path notJfr = Files.writeString(temp.resolve("send-lat.jfr"), "not a recording");

        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> Profile.read(notJfr));
        assertTrue(refused.getMessage().startsWith(notJfr + ": not a JFR recording"), refused.getMessage());
    }

    /**
     * Records three threads for 1.5 s: {@value #SPINNER} in Java ({@link #spin}), {@value #DEFLATER} in zlib's
     * native deflate, {@value #WAITER} asleep in a native accept on a loopback socket.
     *
     * @param file where to write the recording.
     * @return the file.
     */
    static Path record(final Path file) throws Exception
    {
        try (ServerSocketChannel server = ServerSocketChannel.open()
            .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            ThreadSamples samples = ThreadSamples.start("ProfileTest"))
        {
            final long deadline = System.nanoTime() + RECORDED_NANOS;
            final Thread waiter = new Thread(() -> accept(server), WAITER);
            final Thread spinner = new Thread(() -> spin(deadline), SPINNER);
            final Thread deflater = new Thread(() -> deflate(deadline), DEFLATER);
            for (final Thread thread : List.of(waiter, spinner, deflater))
            {
                thread.start();
            }
            spinner.join();
            deflater.join();
            samples.stopInto(file);
            server.close();
            waiter.join();
        }
        return file;
    }

    private static void accept(final ServerSocketChannel server)
    {
        try
        {
            server.accept().close();
        }
        catch (final AsynchronousCloseException ex)
        {
            // closed by the test: the end of the wait
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static long spin(final long deadline)
    {
        long x = 1;
        while (System.nanoTime() < deadline)
        {
            for (int i = 0; i < 1000; i++)
            {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        return x;
    }

    private static void deflate(final long deadline)
    {
        final byte[] input = new byte[1 << 20];
        ThreadLocalRandom.current().nextBytes(input);
        final byte[] output = new byte[input.length + 1024];
        final Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        while (System.nanoTime() < deadline)
        {
            deflater.reset();
            deflater.setInput(input);
            deflater.finish();
            while (!deflater.finished())
            {
                deflater.deflate(output);
            }
        }
        deflater.end();
    }

    private static List<String> what(final List<Profile.Share> shares)
    {
        return shares.stream().map(Profile.Share::what).toList();
    }
}
