package io.ibex.rdma.provider.soft.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.HEADER_LENGTH;
import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.OPCODE_OFFSET;
import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.OP_SEND;
import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.PSN_OFFSET;
import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.SEGMENT_LENGTH_OFFSET;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The faults between a link's wire and its receive buffer ({@link SoftFaultyFrames}): what each fault does to the
 * frames, that frames arrive whole when the faults start in the middle of one, and that what is held back comes out
 * once the faults stop. Frames are named "psn/segment length".
 */
class SoftFaultyFramesTest
{
    private SoftFaults faults;
    private final SoftLink[] ends = SoftLink.inMemory(1, 2, () -> faults);
    private final SoftLink sender = ends[0];
    private final SoftLink receiver = ends[1];

    /**
     * Sends frames 0, 1, 2, ... with the given segment lengths through the faults, then one more once they are
     * gone (psn 9, segment 9), which lets out what they held back.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "none        | 10 0     | 0/10 1/0 9/9",
        "duplicate:1 | 10 20    | 0/10 0/10 1/20 1/20 9/9",
        "reorder:1   | 10 20 30 | 1/20 0/10 9/9 2/30",
        "truncate:1  | 10 0 31  | 0/5 2/15 9/9",
        "drop:1      | 10 20    | 9/9"})
    void eachFaultDoesWhatItSays(final String spec, final String segments, final String expected) throws IOException
    {
        faults = spec.equals("none") ? null : SoftFaults.parse(spec);
        final String[] lengths = segments.split(" ");
        for (int psn = 0; psn < lengths.length; psn++)
        {
            send(psn, Integer.parseInt(lengths[psn]));
        }
        final List<String> frames = receive();
        faults = null;
        send(9, 9);
        frames.addAll(receive());
        assertEquals(List.of(expected.split(" ")), frames);
    }

    @Test
    void aFrameHeldBackForTheNextIsTheOnlyOneHeldBack() throws IOException
    {
        faults = SoftFaults.parse("reorder:1");
        send(0, 10);
        send(1, 20);
        send(2, 30);
        assertEquals(List.of("1/20", "0/10"), receive(), "frame 2 is held back for the next");
        assertEquals(2, faults.count(SoftFaults.Fault.REORDER));
        assertEquals(1, faults.count(SoftFaults.Fault.NONE));
    }

    @Test
    void aDelayedFrameStallsTheStreamUntilItIsDue() throws IOException, InterruptedException
    {
        faults = SoftFaults.parse("delay:1,delay_us:20000");
        send(0, 10);
        send(1, 20);
        assertEquals(List.of(), receive(), "frame 0 is delayed, frame 1 waits behind it");
        faults = null;
        TimeUnit.MILLISECONDS.sleep(30);
        assertEquals(List.of("0/10", "1/20"), receive());
    }

    @Test
    void faultsThatStartInTheMiddleOfAFrameTakeItWhole() throws IOException
    {
        put(0, 100);
        final ByteBuffer tx = sender.tx();
        final byte[] rest = new byte[HEADER_LENGTH + 100 - 30];
        tx.get(30, rest);
        tx.position(30);
        sender.flush();
        assertEquals(List.of(), receive(), "only part of frame 0 arrived");
        faults = SoftFaults.parse("duplicate:1");
        tx.put(rest);
        send(1, 0);
        assertEquals(List.of("0/100", "0/100", "1/0", "1/0"), receive());
    }

    private void send(final int psn, final int segment) throws IOException
    {
        put(psn, segment);
        sender.flush();
    }

    private void put(final int psn, final int segment)
    {
        final ByteBuffer tx = sender.tx();
        final int at = tx.position();
        tx.put(at + OPCODE_OFFSET, OP_SEND).putInt(at + PSN_OFFSET, psn).putInt(at + SEGMENT_LENGTH_OFFSET, segment);
        tx.position(at + HEADER_LENGTH + segment);
    }

    private List<String> receive() throws IOException
    {
        final List<String> frames = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            receiver.read();
            while (receiver.rxAvailable() >= HEADER_LENGTH)
            {
                final ByteBuffer rx = receiver.rx();
                final int at = receiver.rxStart();
                final int segment = rx.getInt(at + SEGMENT_LENGTH_OFFSET);
                frames.add(rx.getInt(at + PSN_OFFSET) + "/" + segment);
                receiver.consume(HEADER_LENGTH + segment);
            }
        }
        return frames;
    }
}
