package io.ibex.benchmarks;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

/**
 * The two-JVM benchmarks (verbs and sample channel ping-pongs, the channel stream; not among the benchmarks'
 * default transports, paths and readers, so {@code EveryBenchmarkRunsTest} does not run them) run: the echo
 * process starts, answers every round trip (a sample channel's with the sequence it was sent), and ends when the
 * ping-pong closes; the reader process reads every sample streamed to it, in order.
 */
@Timeout(120)
class TwoJvmBenchmarksTest
{
    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void everyVerbsRoundTripIsAnsweredByTheEchoProcess(final boolean sharedMemory) throws IOException
    {
        // a round trip returns only once the echo arrived; one the echo process misses fails the QP (RETRY_EXC_ERR),
        // which throws, and the echo process's end throws too
        // both sides yield rather than spin: two spinning processes on a loaded machine of two cores starve each other
        try (PingPong pingPong = new RcProcessPingPong(false, sharedMemory, 64, true))
        {
            for (int round = 0; round < 2000; round++)
            {
                pingPong.roundTrip();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void everyRdmaWrittenSequenceIsWrittenBackByTheEchoProcess(final boolean sharedMemory) throws IOException
    {
        // a round trip returns only once the echo wrote back the sequence just written, so each one is answered
        try (PingPong pingPong = new RcProcessPingPong(true, sharedMemory, 64, true))
        {
            for (int round = 0; round < 2000; round++)
            {
                pingPong.roundTrip();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void everySampleIsAnsweredByTheEchoProcessInOrder(final boolean sharedMemory) throws IOException
    {
        try (PingPong pingPong = new ChannelPingPong(8, sharedMemory, true))
        {
            for (int round = 0; round < 2000; round++)
            {
                pingPong.roundTrip(); // throws if the answer carries another sequence
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { ChannelThroughputBenchmark.READER_SHM_2JVM, ChannelThroughputBenchmark.READER_TCP_2JVM })
    void aStreamOfSamplesReachesTheReaderProcessWholeAndInOrder(final String reader) throws Exception
    {
        final ChannelThroughputBenchmark benchmark = new ChannelThroughputBenchmark();
        benchmark.values = 8;
        benchmark.vectorize = 8;
        benchmark.inline = true;
        benchmark.provider = Transports.SOFT;
        benchmark.address = "127.0.0.1";
        benchmark.reader = reader;
        benchmark.readerYields = true;
        benchmark.setUp();
        for (int i = 0; i < 2000; i++)
        {
            benchmark.write();
        }
        benchmark.tearDown(); // throws unless the reader process read every sample, in order
    }
}
