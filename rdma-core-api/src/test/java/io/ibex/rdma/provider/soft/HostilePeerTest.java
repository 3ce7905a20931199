package io.ibex.rdma.provider.soft;

import io.ibex.rdma.conformance.Await;
import io.ibex.rdma.provider.soft.qp.SoftRequester;
import io.ibex.rdma.provider.soft.wire.SoftLinkToken;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.BufferUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hostile peer on an RC QP's link, one attack a row: what it sends, and what must follow. Whatever it sends, the
 * QP either NAKs the request with the syndrome rxe would use (the requester's work request would complete with
 * {@link SoftRequester#nakStatus}) or closes the link, and goes to ERR, flushing its receives; a log line says what
 * was wrong. In every row, nothing outside a registered region is read or written (every region lies between guard
 * bytes, and the memory must be byte for byte as it was; no READ or atomic response comes back), and the device
 * allocates no more than a fixed bound, however large a length field.
 * <p>
 * The QP's PD has region {@code A} (every access); another PD has {@code B}; {@code C} is registered for local
 * access only; {@code D} was deregistered; the QP's two receives are in {@code INBOX}.
 */
@Timeout(30)
class HostilePeerTest
{
    private static final int GUARD = 256;
    private static final int REGION = 4096;
    private static final byte GUARD_BYTE = (byte)0x5a;
    private static final int A = 0;
    private static final int B = 1;
    private static final int C = 2;
    private static final int D = 3;
    private static final int INBOX = 4;
    private static final int REGIONS = 5;
    /** What an attack may make the JVM allocate at most (heap and direct), where a length field would ask GiBs. */
    private static final long ALLOCATION_BOUND = 64L << 20;
    private static final long WRAPPING_ADDRESS = 0xffff_ffff_ffff_fff0L;

    private final SoftFixture fixture = new SoftFixture();
    private final ByteBuffer memory = ByteBuffer.allocateDirect(GUARD + REGIONS * (REGION + GUARD));
    private final long[] addresses = new long[REGIONS];
    private final int[] rkeys = new int[REGIONS];
    private final MemoryRegion[] regions = new MemoryRegion[REGIONS];
    private final byte[] before = new byte[memory.capacity()];
    private QueuePair qp;
    private SoftWirePeer peer;

    /** How the QP must answer. */
    enum Outcome
    {
        /** A NAK with the row's syndrome, no response before it, and the QP in ERR. */
        NAK,
        /** The device closes the link (the peer reads end of stream) and the QP goes to ERR. */
        CLOSED,
        /** The peer closes the link after its bytes: the QP goes to ERR. */
        PEER_CLOSED
    }

    /** What a hostile peer sends, given the test (its regions' addresses and keys) and its socket. */
    interface Send
    {
        void to(HostilePeerTest test, SoftWirePeer peer) throws IOException;
    }

    /**
     * @param name     what the peer does.
     * @param send     the bytes it sends.
     * @param outcome  how the QP answers.
     * @param syndrome the NAK's syndrome (NAK rows).
     * @param logged   what the log line says (part of it).
     */
    record Attack(String name, Send send, Outcome outcome, byte syndrome, String logged)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static List<Attack> attacks()
    {
        return List.of(
            // cut short, garbage, impossible segment lengths
            closedByPeer("a header cut short, then close",
                (t, p) -> p.write(t.write(t.rkeys[A], t.addresses[A], 64, 64).limit(20))),
            closedByPeer("a WRITE's payload cut short, then close",
                (t, p) -> p.write(t.write(t.rkeys[A], t.addresses[A], 1000, 1000).limit(HEADER_LENGTH + 500))),
            closed("garbage: an HTTP request", (t, p) -> p.write(ByteBuffer.wrap(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\nUser-Agent: x\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII))), "frame segment length"),
            closed("garbage: a header of zeros (opcode 0)", (t, p) -> p.write(ByteBuffer.allocate(HEADER_LENGTH)),
                "invalid frame for a RC QP: opcode=0"),
            closed("segment length 2^31-1", (t, p) -> p.writeHeader(OP_SEND, 0, 0, PSN_MASK, Integer.MAX_VALUE, 8),
                "frame segment length 2147483647 outside"),
            closed("segment length -1 (2^32-1 as u32)", (t, p) -> p.writeHeader(OP_SEND, 0, 0, PSN_MASK, -1, 8),
                "frame segment length -1 outside"),
            closed("a segment past its message's length", (t, p) -> p.write(t.write(t.rkeys[A], t.addresses[A], 8,
                16)), "segment=16 length=8"),
            closed("a READ response for no READ", (t, p) -> p.write(t.frame(OP_READ_RESPONSE, 0, 0, 0, 8, 8)),
                "matches no outstanding READ"),
            closed("an atomic response for no atomic", (t, p) -> p.write(t.frame(OP_ATOMIC_RESPONSE, 0, 0, 0, 0, 8)),
                "matches no outstanding atomic"),
            closed("a WRITE after a goodbye", (t, p) ->
            {
                // an ACK first, so the link is taken: a link whose first frame is a goodbye is dropped unused
                p.writeHeader(OP_ACK, 0, 0, PSN_MASK, 0, 0);
                p.writeHeader(OP_GOODBYE, 0, 0, PSN_MASK, 0, 0);
                p.write(t.write(t.rkeys[A], t.addresses[A], 64, 64));
            }, null),

            // wrong and forged rkeys
            nak("WRITE with an rkey no region has", (t, p) -> p.write(t.write(t.rkeys[A] ^ 0x5a5a00, t.addresses[A],
                64, 64)), SYNDROME_NAK_REMOTE_ACCESS, "no open region has this rkey"),
            nak("WRITE with its region's index but other random bits", (t, p) -> p.write(t.write(t.rkeys[A] ^ 0x801,
                t.addresses[A], 64, 64)), SYNDROME_NAK_REMOTE_ACCESS, "no open region has this rkey"),
            nak("WRITE with another PD's rkey", (t, p) -> p.write(t.write(t.rkeys[B], t.addresses[B], 64, 64)),
                SYNDROME_NAK_REMOTE_ACCESS, "is of another protection domain"),
            nak("WRITE with a deregistered region's rkey", (t, p) -> p.write(t.write(t.rkeys[D], t.addresses[D], 64,
                64)), SYNDROME_NAK_REMOTE_ACCESS, "no open region has this rkey"),
            nak("READ with a deregistered region's rkey", (t, p) -> p.write(t.read(t.rkeys[D], t.addresses[D], 64)),
                SYNDROME_NAK_REMOTE_ACCESS, "no open region has this rkey"),
            nak("WRITE to a local-only region", (t, p) -> p.write(t.write(t.rkeys[C], t.addresses[C], 64, 64)),
                SYNDROME_NAK_REMOTE_ACCESS, "lacks REMOTE_WRITE"),
            nak("READ from a local-only region", (t, p) -> p.write(t.read(t.rkeys[C], t.addresses[C], 64)),
                SYNDROME_NAK_REMOTE_ACCESS, "lacks REMOTE_READ"),
            nak("fetch-and-add on a local-only region", (t, p) -> p.write(t.atomic(t.rkeys[C], t.addresses[C])),
                SYNDROME_NAK_REMOTE_ACCESS, "lacks REMOTE_ATOMIC"),
            nak("READ with another PD's rkey", (t, p) -> p.write(t.read(t.rkeys[B], t.addresses[B], 64)),
                SYNDROME_NAK_REMOTE_ACCESS, "is of another protection domain"),

            // addresses and lengths beyond the region
            nak("WRITE across the region's end", (t, p) -> p.write(t.write(t.rkeys[A], t.end(A) - 8, 16, 16)),
                SYNDROME_NAK_REMOTE_ACCESS, "not inside"),
            nak("WRITE starting before the region", (t, p) -> p.write(t.write(t.rkeys[A], t.addresses[A] - 8, 16,
                16)), SYNDROME_NAK_REMOTE_ACCESS, "not inside"),
            nak("WRITE whose address + length wraps 2^64", (t, p) -> p.write(t.write(t.rkeys[A], WRAPPING_ADDRESS, 32,
                32)), SYNDROME_NAK_REMOTE_ACCESS, "not inside"),
            nak("READ across the region's end", (t, p) -> p.write(t.read(t.rkeys[A], t.end(A) - 8, 16)),
                SYNDROME_NAK_REMOTE_ACCESS, "not inside"),
            nak("READ whose address + length wraps 2^64", (t, p) -> p.write(t.read(t.rkeys[A], WRAPPING_ADDRESS, 32)),
                SYNDROME_NAK_REMOTE_ACCESS, "not inside"),
            nak("fetch-and-add at the region's end", (t, p) -> p.write(t.atomic(t.rkeys[A], t.end(A))),
                SYNDROME_NAK_REMOTE_ACCESS, "not inside"),
            nak("fetch-and-add misaligned inside the region", (t, p) -> p.write(t.atomic(t.rkeys[A], t.addresses[A] +
                4)), SYNDROME_NAK_INVALID_REQUEST, "misaligned"),

            // huge length fields
            nak("WRITE of 2^31-1 bytes into a 4 KiB region", (t, p) -> p.write(t.write(t.rkeys[A], t.addresses[A],
                Integer.MAX_VALUE, 8)), SYNDROME_NAK_REMOTE_ACCESS, "not inside"),
            nak("READ of 2^31 bytes from a 4 KiB region", (t, p) -> p.write(t.read(t.rkeys[A], t.addresses[A],
                Integer.MIN_VALUE)), SYNDROME_NAK_REMOTE_ACCESS, "not inside"),
            nak("WRITE of 2^31+1 bytes", (t, p) -> p.write(t.write(t.rkeys[A], t.addresses[A], 0x8000_0001, 8)),
                SYNDROME_NAK_INVALID_REQUEST, "longer than the 2^31 bytes"),
            nak("READ of 2^32-1 bytes (-1 as an int)", (t, p) -> p.write(t.read(t.rkeys[A], t.addresses[A], -1)),
                SYNDROME_NAK_INVALID_REQUEST, "longer than the 2^31 bytes"),
            nak("SEND of 2^32-1 bytes into a 64-byte receive",
                (t, p) -> p.write(t.frame(OP_SEND, 0, 0, 0, 8, -1)), SYNDROME_NAK_REMOTE_OPERATION, null),
            nak("a WRITE's later frame saying the message is longer than its first did", (t, p) ->
            {
                final long at = t.end(A) - 64;
                p.write(t.write(t.rkeys[A], at, 64, 32));
                p.write(t.frame(OP_WRITE, 0, t.rkeys[A], at, 512, 4096).putInt(SEGMENT_OFFSET_OFFSET, 32));
            }, SYNDROME_NAK_INVALID_REQUEST, "a later frame says the message is 4096 bytes, its first said 64"));
    }

    @BeforeEach
    void open() throws IOException
    {
        final ProtectionDomain otherPd = fixture.context.allocPd();
        final int[] access = {AccessFlags.ALL, AccessFlags.ALL, AccessFlags.LOCAL_WRITE, AccessFlags.ALL,
            AccessFlags.LOCAL_WRITE};
        for (int i = 0; i < memory.capacity(); i++)
        {
            memory.put(i, GUARD_BYTE);
        }
        for (int r = 0; r < REGIONS; r++)
        {
            final int start = GUARD + r * (REGION + GUARD);
            for (int i = 0; i < REGION; i++)
            {
                memory.put(start + i, (byte)(r * 64 + i * 31 + 7));
            }
            final MemoryRegion mr = (r == B ? otherPd : fixture.pd).registerMemory(memory.slice(start, REGION),
                access[r]);
            regions[r] = mr;
            addresses[r] = mr.address();
            rkeys[r] = mr.rkey();
            if (r == D)
            {
                mr.close();
            }
        }
        memory.get(0, before);

        qp = fixture.qp(QpType.RC, 4);
        SoftFixture.connect(qp, SoftWirePeer.address(), SoftWirePeer.QPN, 7);
        for (int i = 0; i < 2; i++)
        {
            final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(i);
            recv.sge(0).set(addresses[INBOX] + i * 64, 64, rkeys[INBOX]);
            qp.postRecv(recv);
        }
        peer = new SoftWirePeer((SoftDevice)fixture.context.device(), qp.qpNum());
    }

    @AfterEach
    void close() throws IOException
    {
        peer.close();
        fixture.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attacks")
    void attack(final Attack attack) throws IOException
    {
        final long allocatedBefore = allocated();
        try (LogCapture log = new LogCapture())
        {
            attack.send.to(this, peer);
            switch (attack.outcome)
            {
                case NAK ->
                {
                    final ByteBuffer nak = awaitNak();
                    assertEquals(attack.syndrome, nak.get(SYNDROME_OFFSET), "NAK syndrome");
                }
                case CLOSED -> assertEquals(-1, peer.readUntilClosed(), "the device closed the link");
                default -> peer.close();
            }
            Await.until(() -> qp.state() == QpState.ERR, "the QP in ERR");
            assertReceivesFailed(attack);
            if (attack.logged != null)
            {
                log.await(attack.logged);
            }
        }
        assertArrayEquals(before, snapshot(), "memory inside and around every region as it was");
        final long allocated = allocated() - allocatedBefore;
        assertTrue(allocated < ALLOCATION_BOUND, "allocated " + allocated + " bytes");
    }

    /**
     * A peer's QP that says goodbye (destroyed or reset) before it answered a request: the request fails as if the
     * peer had gone silent, and this one goodbye, unlike a clean one, is worth a warning.
     */
    @Test
    void aGoodbyeBeforeTheAnswerFailsTheRequestWithAWarning() throws IOException
    {
        try (LogCapture log = new LogCapture())
        {
            final SendWorkRequest send = new SendWorkRequest().wrId(5).opcode(SendOpcode.SEND)
                .sendFlags(SendFlags.SIGNALED);
            send.sge(0).set(regions[A], 0, 64);
            qp.postSend(send);
            assertEquals(OP_SEND, peer.readFrame().get(OPCODE_OFFSET));
            peer.writeHeader(OP_GOODBYE, 0, 0, PSN_MASK, 0, 0); // acknowledges nothing
            assertEquals(WcStatus.RETRY_EXC_ERR, SoftFixture.await(qp.sendCq()).status(), "the unanswered SEND");
            log.await("left (destroyed or reset) before answering");
        }
    }

    /**
     * The test's rows fail for what they do, not because the peer or the regions are wrong: the same requests,
     * made right, execute.
     */
    @Test
    void theSameRequestsMadeRightExecute() throws IOException
    {
        final ByteBuffer write = write(rkeys[A], end(A) - 64, 64, 64);
        for (int i = 0; i < 64; i++)
        {
            write.put(HEADER_LENGTH + i, (byte)i);
        }
        write.put(FLAGS_OFFSET, FLAG_ACK_REQUEST);
        peer.write(write);
        final ByteBuffer ack = awaitFrame(peer, OP_ACK);
        assertEquals(SYNDROME_ACK, ack.get(SYNDROME_OFFSET));
        for (int i = 0; i < 64; i++)
        {
            assertEquals((byte)i, memory.get(GUARD + REGION - 64 + i), "byte " + i + " written");
        }

        peer.write(read(rkeys[A], addresses[A], 64).putInt(PSN_OFFSET, 1));
        final ByteBuffer response = awaitFrame(peer, OP_READ_RESPONSE);
        assertEquals(64, response.getInt(MESSAGE_LENGTH_OFFSET));
        assertEquals(QpState.RTS, qp.state());
    }

    /**
     * A region deregistered while a WRITE's frames arrive takes none after: the next is NAKed (rxe holds the MR it
     * checked for the whole message, and rechecks it for each READ response packet).
     */
    @Test
    void aRegionDeregisteredDuringAWriteTakesNoMoreOfIt() throws IOException
    {
        final ByteBuffer first = write(rkeys[A], addresses[A], 128, 64);
        for (int i = 0; i < 64; i++)
        {
            first.put(HEADER_LENGTH + i, (byte)0xee);
        }
        peer.write(first);
        Await.until(() -> memory.get(GUARD + 63) == (byte)0xee, "the first frame placed");
        regions[A].close();
        final ByteBuffer rest = frame(OP_WRITE, 0, rkeys[A], addresses[A], 64, 128).putInt(SEGMENT_OFFSET_OFFSET, 64);
        for (int i = 0; i < 64; i++)
        {
            rest.put(HEADER_LENGTH + i, (byte)0xee);
        }
        try (LogCapture log = new LogCapture())
        {
            peer.write(rest);
            assertEquals(SYNDROME_NAK_REMOTE_ACCESS, awaitNak().get(SYNDROME_OFFSET));
            log.await("its region was deregistered while the message arrived");
        }
        for (int i = 64; i < 128; i++)
        {
            assertEquals(before[GUARD + i], memory.get(GUARD + i), "byte " + i + " written after deregistration");
        }
    }

    /**
     * A region deregistered while a READ's response is sent is read no further: a NAK ends the response.
     */
    @Test
    void aRegionDeregisteredDuringAReadIsReadNoFurther() throws IOException
    {
        // far more than the link's and the sockets' buffers hold, so the response is still being sent
        final int length = 64 << 20;
        final MemoryRegion large = fixture.pd.registerMemory(ByteBuffer.allocateDirect(length),
            AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ);
        peer.write(read(large.rkey(), large.address(), length));
        long responded = awaitFrame(peer, OP_READ_RESPONSE).getInt(SEGMENT_LENGTH_OFFSET);
        large.close();
        while (true)
        {
            final ByteBuffer frame = peer.readFrame();
            if (frame.get(OPCODE_OFFSET) == OP_READ_RESPONSE)
            {
                responded += frame.getInt(SEGMENT_LENGTH_OFFSET);
            }
            else if (frame.get(OPCODE_OFFSET) == OP_ACK)
            {
                assertEquals(SYNDROME_NAK_REMOTE_ACCESS, frame.get(SYNDROME_OFFSET));
                break;
            }
        }
        assertTrue(responded < length, "responded " + responded + " of " + length + " bytes");
        Await.until(() -> qp.state() == QpState.ERR, "the QP in ERR");
    }

    /**
     * HELLOs that name no QP, or a QP that is not theirs to attach to, or are not HELLOs at all: the device closes
     * the connection and logs why; the QP they named is untouched and its real peer still attaches.
     */
    @Test
    void nonsenseHellosAreClosedAndTheQpStillTakesItsPeer() throws IOException
    {
        final QueuePair waiting = fixture.qp(QpType.RC, 4);
        SoftFixture.connect(waiting, SoftWirePeer.address(), SoftWirePeer.QPN, 7);
        final int qpn = waiting.qpNum();
        final List<ByteBuffer> hellos = List.of(
            SoftWirePeer.hello(qpn).putInt(HELLO_MAGIC_OFFSET, 0x50545448),
            SoftWirePeer.hello(qpn).putInt(HELLO_VERSION_OFFSET, -1),
            SoftWirePeer.hello(0xdead),
            SoftWirePeer.hello(qpn).putInt(HELLO_SRC_QPN_OFFSET, SoftWirePeer.QPN + 1),
            SoftWirePeer.hello(qpn).putInt(HELLO_SRC_PORT_OFFSET, SoftWirePeer.PORT + 1));
        final String[] logged = {"bad HELLO: magic=0x50545448", "bad HELLO: magic=0x53584249 version=-1",
            "HELLO names QP 0xdead, which does not exist", "(QP 0x78) does not match its remote QP 0x77",
            "(QP 0x77) does not match its remote QP 0x77"};
        final SoftDevice device = (SoftDevice)fixture.context.device();
        try (LogCapture log = new LogCapture())
        {
            for (int i = 0; i < hellos.size(); i++)
            {
                try (SoftWirePeer nonsense = new SoftWirePeer(device))
                {
                    nonsense.write(hellos.get(i));
                    assertEquals(-1, nonsense.readUntilClosed(), "HELLO " + i + " closed");
                }
                log.await(logged[i]);
            }
            try (SoftWirePeer cut = new SoftWirePeer(device))
            {
                cut.write(SoftWirePeer.hello(qpn).limit(10));
            }
            log.await("closed before its HELLO was complete");
        }
        assertEquals(QpState.RTS, waiting.state());

        try (SoftWirePeer real = new SoftWirePeer(device, qpn))
        {
            real.write(read(rkeys[A], addresses[A], 8));
            awaitFrame(real, OP_READ_RESPONSE);
            try (LogCapture log = new LogCapture(); SoftWirePeer second = new SoftWirePeer(device, qpn))
            {
                assertEquals(-1, second.readUntilClosed(), "a second link to a QP that has one is closed");
                log.await("does not match its remote QP");
            }
            real.write(read(rkeys[A], addresses[A], 8).putInt(PSN_OFFSET, 1));
            awaitFrame(real, OP_READ_RESPONSE);
        }
        Await.until(() -> waiting.state() == QpState.ERR, "in ERR once its real peer closed the link");
    }

    /**
     * A HELLO can come before the connection manager bound the QP's token (the passive side opens the link as soon
     * as its REP leaves): it waits with the QP, and at RTR the link is adopted only if the HELLO carries the token
     * bound by then. A QP with a token takes no HELLO of all zeros.
     */
    @Test
    void aHelloThatCameBeforeTheTokenIsCheckedAtRtr() throws Exception
    {
        final SoftDevice device = (SoftDevice)fixture.context.device();
        final byte[] token = SoftLinkToken.generate();
        for (final boolean right : new boolean[]{false, true})
        {
            final QueuePair waiting = fixture.qp(QpType.RC, 4);
            waiting.modify(QpAttr.init(1, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ));
            try (LogCapture log = new LogCapture(); SoftWirePeer early = new SoftWirePeer(device))
            {
                early.write(SoftWirePeer.hello(waiting.qpNum()).put(HELLO_TOKEN_OFFSET,
                    right ? token : new byte[SoftLinkToken.LENGTH]));
                Thread.sleep(500); // the progress thread hands the HELLO to the QP, which keeps it until RTR
                waiting.bindLinkToken(token);
                waiting.modify(QpAttr.rtr(SoftWirePeer.address(), SoftWirePeer.QPN, 0, Mtu.MTU_4096).minRnrTimer(1));
                waiting.modify(QpAttr.rts(0).rnrRetry(7));
                if (right)
                {
                    early.write(read(rkeys[A], addresses[A], 8));
                    awaitFrame(early, OP_READ_RESPONSE);
                }
                else
                {
                    assertEquals(-1, early.readUntilClosed(), "the link is closed");
                    log.await("QP 0x" + Integer.toHexString(waiting.qpNum()) + " (RC): incoming link from ");
                    log.await("refused: its HELLO lacks its connection's token; closed");
                    assertEquals(QpState.RTS, waiting.state(), "the QP still waits for its real link");
                }
            }
            waiting.close();
        }
    }

    /**
     * UD datagrams whose payload length field lies are dropped (the receive stays posted); a datagram's size is
     * bounded by the device's fixed receive buffer, so nothing in it can make the device allocate.
     */
    @Test
    void datagramsWithLyingLengthsAreDropped()
    {
        final QueuePair ud = fixture.qp(QpType.UD, 4);
        SoftFixture.connect(ud, null, 0, 0);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(7);
        recv.sge(0).set(addresses[INBOX], GRH_LENGTH + 64, rkeys[INBOX]);
        ud.postRecv(recv);
        final SoftDevice device = (SoftDevice)fixture.context.device();
        final ByteBuffer datagram = ByteBuffer.allocateDirect(UD_HEADER_LENGTH + 16).order(ByteOrder.LITTLE_ENDIAN);
        datagram.put(UD_OPCODE_OFFSET, OP_SEND).putInt(UD_DST_QPN_OFFSET, ud.qpNum())
            .putInt(UD_QKEY_OFFSET, SoftFixture.QKEY);
        for (final int length : new int[]{Integer.MAX_VALUE, -1, 17, 4096})
        {
            datagram.putInt(UD_PAYLOAD_LENGTH_OFFSET, length);
            device.deliverDatagram(datagram);
        }
        assertEquals(0, ud.recvCq().poll(new WorkCompletion[]{new WorkCompletion()}), "nothing received");

        datagram.putInt(UD_PAYLOAD_LENGTH_OFFSET, 16);
        device.deliverDatagram(datagram);
        final WorkCompletion wc = SoftFixture.await(ud.recvCq());
        assertEquals(WcStatus.SUCCESS, wc.status());
        assertEquals(GRH_LENGTH + 16, wc.byteLen());
        assertArrayEquals(before, clearInbox(snapshot()), "nothing but the inbox written");
    }

    // ---- frames ----

    ByteBuffer frame(final byte opcode, final int psn, final int rkey, final long address, final int segment,
        final int length)
    {
        final ByteBuffer frame = ByteBuffer.allocate(HEADER_LENGTH + Math.max(0, segment))
            .order(ByteOrder.LITTLE_ENDIAN);
        frame.put(OPCODE_OFFSET, opcode);
        frame.putInt(PSN_OFFSET, psn);
        frame.putInt(ACK_PSN_OFFSET, PSN_MASK);
        frame.putInt(SEGMENT_LENGTH_OFFSET, segment);
        frame.putInt(MESSAGE_LENGTH_OFFSET, length);
        frame.putInt(RKEY_OFFSET, rkey);
        frame.putLong(REMOTE_ADDR_OFFSET, address);
        return frame;
    }

    /**
     * @return the first frame of an RDMA WRITE of {@code length} bytes whose payload is {@code segment} bytes of
     *         what the memory there holds already (so a write that is allowed changes nothing).
     */
    ByteBuffer write(final int rkey, final long address, final int length, final int segment)
    {
        final ByteBuffer frame = frame(OP_WRITE, 0, rkey, address, segment, length);
        final long offset = address - BufferUtil.address(memory);
        for (int i = 0; i < segment; i++)
        {
            frame.put(HEADER_LENGTH + i, offset >= 0 && offset + i < before.length ? before[(int)offset + i] : 0);
        }
        return frame;
    }

    ByteBuffer read(final int rkey, final long address, final int length)
    {
        return frame(OP_READ, 0, rkey, address, 0, length);
    }

    ByteBuffer atomic(final int rkey, final long address)
    {
        return frame(OP_FETCH_ADD, 0, rkey, address, 0, Long.BYTES).putLong(COMPARE_ADD_OFFSET, 1);
    }

    long end(final int region)
    {
        return addresses[region] + REGION;
    }

    // ---- checks ----

    /**
     * @return the first NAK the QP sends, failing on a READ or atomic response before it.
     */
    private ByteBuffer awaitNak() throws IOException
    {
        while (true)
        {
            final ByteBuffer frame = peer.readFrame();
            final byte opcode = frame.get(OPCODE_OFFSET);
            assertNotEquals(OP_READ_RESPONSE, opcode, "a READ response");
            assertNotEquals(OP_ATOMIC_RESPONSE, opcode, "an atomic response");
            if (opcode == OP_ACK && frame.get(SYNDROME_OFFSET) != SYNDROME_ACK)
            {
                return frame;
            }
        }
    }

    private static ByteBuffer awaitFrame(final SoftWirePeer peer, final byte opcode) throws IOException
    {
        ByteBuffer frame;
        do
        {
            frame = peer.readFrame();
        }
        while (frame.get(OPCODE_OFFSET) != opcode);
        return frame;
    }

    /**
     * Both receives complete, neither successfully: a SEND too long for the first fails it as rxe does, the rest
     * are flushed.
     */
    private void assertReceivesFailed(final Attack attack)
    {
        final WorkCompletion first = SoftFixture.await(qp.recvCq());
        final WorkCompletion[] second = {new WorkCompletion()};
        assertEquals(attack.syndrome == SYNDROME_NAK_REMOTE_OPERATION ? WcStatus.LOC_QP_OP_ERR : WcStatus.WR_FLUSH_ERR,
            first.status());
        assertEquals(WcStatus.WR_FLUSH_ERR, SoftFixture.await(qp.recvCq()).status());
        assertEquals(0, qp.recvCq().poll(second));
    }

    private byte[] snapshot()
    {
        final byte[] now = new byte[memory.capacity()];
        memory.get(0, now);
        return now;
    }

    private byte[] clearInbox(final byte[] bytes)
    {
        final int start = GUARD + INBOX * (REGION + GUARD);
        System.arraycopy(before, start, bytes, start, REGION);
        return bytes;
    }

    /**
     * @return the bytes the JVM has allocated so far: heap by every thread, and direct buffers in use.
     */
    private static long allocated()
    {
        long direct = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            direct += pool.getMemoryUsed();
        }
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes() +
            direct;
    }

    private static Attack nak(final String name, final Send send, final byte syndrome, final String logged)
    {
        return new Attack(name, send, Outcome.NAK, syndrome, logged);
    }

    private static Attack closed(final String name, final Send send, final String logged)
    {
        return new Attack(name, send, Outcome.CLOSED, SYNDROME_ACK, logged);
    }

    private static Attack closedByPeer(final String name, final Send send)
    {
        return new Attack(name, send, Outcome.PEER_CLOSED, SYNDROME_ACK, "the peer closed the connection");
    }
}
