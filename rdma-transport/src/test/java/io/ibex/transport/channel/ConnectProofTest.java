package io.ibex.transport.channel;

import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

import static io.ibex.transport.channel.ConnectProofDescriptor.REPLY_LENGTH;
import static io.ibex.transport.channel.ConnectProofDescriptor.REQUEST_LENGTH;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ConnectProofTest
{
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final InetSocketAddress TARGET = new InetSocketAddress("10.0.0.1", 1337);
    /** rdma_cm's REQ private data as delivered: zero-padded to 56 bytes. */
    private static final int REQ_SIZE = 56;
    private static final int REP_SIZE = 196;
    private static final long START_MILLIS = 1_700_000_000_123L;
    private static final int UC = UcEndpoint.LENGTH;
    private static final int WINDOW = ConnectProof.WINDOW_SECONDS;

    private long sourceMillis = START_MILLIS;
    private long targetMillis = START_MILLIS;
    private final ConnectProof source = new ConnectProof(secret(KEY), () -> sourceMillis);
    private final ConnectProof target = new ConnectProof(secret(KEY), () -> targetMillis);

    @Test
    void aSourceAndATargetWithTheSameSecretProveItToEachOtherInRcAndUdAndUc()
    {
        for (final int offset : new int[] {0, UC})
        {
            final byte[] request = request(offset);
            final byte[] delivered = Arrays.copyOf(request, REQ_SIZE);

            assertNull(target.checkRequest(TARGET, delivered, offset));
            final byte[] reply = reply(delivered, offset, offset);
            assertNull(source.checkReply(request, offset, Arrays.copyOf(reply, REP_SIZE), offset));
        }
        assertEquals(REQ_SIZE, UC + REQUEST_LENGTH, "a UC endpoint and the proof fill a REQ");
    }

    @Test
    void theRequestMacIsTheDocumentedHmacOfLabelTargetTimeNonceAndWhatPrecedes() throws Exception
    {
        final byte[] request = request(UC);

        final ByteBuffer input = ByteBuffer.allocate(100).order(ByteOrder.LITTLE_ENDIAN);
        input.put("ibex-connect-request-v1".getBytes(StandardCharsets.US_ASCII))
            .put(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte)0xff, (byte)0xff, 10, 0, 0, 1}).putShort((short)1337)
            .put(request, UC, 12).put(request, 0, UC);
        final byte[] mac = hmac(Arrays.copyOf(input.array(), input.position()));

        assertEquals((int)(START_MILLIS / 1000), ByteBuffer.wrap(request).order(ByteOrder.LITTLE_ENDIAN).getInt(UC));
        assertArrayEquals(Arrays.copyOf(mac, 12), Arrays.copyOfRange(request, UC + 12, UC + 24));

        final byte[] reply = reply(request, UC, 8);
        final byte[] replyInput = new byte[21 + REQUEST_LENGTH + 8];
        System.arraycopy("ibex-connect-reply-v1".getBytes(StandardCharsets.US_ASCII), 0, replyInput, 0, 21);
        System.arraycopy(request, UC, replyInput, 21, REQUEST_LENGTH);
        System.arraycopy(reply, 0, replyInput, 21 + REQUEST_LENGTH, 8);
        assertArrayEquals(Arrays.copyOf(hmac(replyInput), REPLY_LENGTH), Arrays.copyOfRange(reply, 8, 24));
    }

    @Test
    void aWrongSecretIsRefusedEitherWay()
    {
        final ConnectProof impostor = new ConnectProof(secret("another secret of 32 bytes......".getBytes(
            StandardCharsets.US_ASCII)), () -> START_MILLIS);
        final byte[] request = request(0);
        final byte[] forged = new byte[REQ_SIZE];
        impostor.writeRequest(TARGET, forged, 0);

        assertEquals(ConnectProof.WRONG_PROOF, target.checkRequest(TARGET, forged, 0));
        final byte[] reply = new byte[REPLY_LENGTH];
        impostor.writeReply(request, 0, reply, 0);
        assertEquals(ConnectProof.WRONG_TARGET_PROOF, source.checkReply(request, 0, reply, 0));
    }

    @Test
    void aFlippedBitInAnyFieldOrInWhatPrecedesTheBlockIsRefused()
    {
        final byte[] request = request(UC);
        for (int bit = 0; bit < 8 * request.length; bit++)
        {
            assertEquals(ConnectProof.WRONG_PROOF, target.checkRequest(TARGET, flip(request, bit), UC), "bit " + bit);
        }
        assertNull(target.checkRequest(TARGET, request, UC), "no flipped request was taken, so none is a replay");

        final byte[] reply = reply(request, UC, UC);
        for (int bit = 0; bit < 8 * reply.length; bit++)
        {
            assertEquals(ConnectProof.WRONG_TARGET_PROOF, source.checkReply(request, UC, flip(reply, bit), UC),
                "bit " + bit);
        }
        for (int bit = 8 * UC; bit < 8 * request.length; bit++)
        {
            assertEquals(ConnectProof.WRONG_TARGET_PROOF, source.checkReply(flip(request, bit), UC, reply, UC),
                "a reply answers one request only: bit " + bit);
        }
    }

    @Test
    void aRequestForAnotherTargetIsRefusedAndBothFormsOfAnIpv4AddressAgree() throws Exception
    {
        final byte[] request = request(0);
        final InetAddress mapped = Inet6Address.getByAddress(null,
            new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte)0xff, (byte)0xff, 10, 0, 0, 1}, -1);

        assertEquals(ConnectProof.WRONG_PROOF, target.checkRequest(new InetSocketAddress("10.0.0.2", 1337), request,
            0));
        assertEquals(ConnectProof.WRONG_PROOF, target.checkRequest(new InetSocketAddress("10.0.0.1", 1338), request,
            0));
        assertInstanceOf(Inet6Address.class, mapped);
        assertNull(target.checkRequest(new InetSocketAddress(mapped, 1337), request, 0));
    }

    @Test
    void aMissingOrAllZeroBlockIsNoProof()
    {
        assertEquals(ConnectProof.NO_PROOF, target.checkRequest(TARGET, new byte[0], 0));
        assertEquals(ConnectProof.NO_PROOF, target.checkRequest(TARGET, new byte[REQ_SIZE], 0));
        assertEquals(ConnectProof.NO_PROOF, target.checkRequest(TARGET, Arrays.copyOf(request(UC), UC + 23), UC),
            "cut short");
        final byte[] ucOnly = new byte[REQ_SIZE];
        Arrays.fill(ucOnly, 0, UC, (byte)7);
        assertEquals(ConnectProof.NO_PROOF, target.checkRequest(TARGET, ucOnly, UC), "a UC endpoint, no proof");

        final byte[] request = request(0);
        assertEquals(ConnectProof.NO_TARGET_PROOF, source.checkReply(request, 0, new byte[0], 0));
        assertEquals(ConnectProof.NO_TARGET_PROOF, source.checkReply(request, 0, new byte[REP_SIZE], 0));
        assertEquals(ConnectProof.NO_TARGET_PROOF, source.checkReply(request, 0, new byte[UC + 15], UC));
    }

    @Test
    void clocksMayDisagreeBy60SecondsEitherWayButNotMore()
    {
        sourceMillis = START_MILLIS + 60_000;
        assertNull(target.checkRequest(TARGET, request(0), 0));
        sourceMillis = START_MILLIS - 60_000;
        assertNull(target.checkRequest(TARGET, request(0), 0));

        sourceMillis = START_MILLIS + 61_000;
        assertEquals("its clock is 61 s ahead of the target's: clocks must agree within 60 s",
            target.checkRequest(TARGET, request(0), 0));
        sourceMillis = START_MILLIS - 3_600_000;
        assertEquals("its clock is 3600 s behind the target's: clocks must agree within 60 s",
            target.checkRequest(TARGET, request(0), 0));
        sourceMillis = 0;
        assertEquals("its clock is " + START_MILLIS / 1000 + " s behind the target's: clocks must agree within 60 s",
            target.checkRequest(TARGET, request(0), 0));
    }

    @Test
    void theTimeComparesAcrossTheWrapOfItsU32()
    {
        targetMillis = (1L << 32) * 1000 + 10_000;
        sourceMillis = (1L << 32) * 1000 - 20_000;

        assertNull(target.checkRequest(TARGET, request(0), 0));
    }

    @Test
    void aRequestIsTakenOnceAndForgottenWhenItsWindowEnds()
    {
        final byte[] request = request(0);

        assertNull(target.checkRequest(TARGET, request, 0));
        assertEquals(ConnectProof.REPLAYED, target.checkRequest(TARGET, request, 0));
        targetMillis += 60_000;
        assertEquals(ConnectProof.REPLAYED, target.checkRequest(TARGET, request, 0));
        assertEquals(1, target.remembered());
        targetMillis += 1_000;
        assertEquals(0, target.remembered(), "past its window the time check refuses it");
        assertEquals("its clock is 61 s behind the target's: clocks must agree within 60 s",
            target.checkRequest(TARGET, request, 0));
    }

    @Test
    void aRequestFromAFastClockIsRememberedUntilItsOwnTimeLeavesTheWindow()
    {
        sourceMillis = START_MILLIS + 50_000;
        final byte[] request = request(0);

        assertNull(target.checkRequest(TARGET, request, 0));
        targetMillis += 110_000;
        assertEquals(ConnectProof.REPLAYED, target.checkRequest(TARGET, request, 0));
        targetMillis += 1_000;
        assertEquals(0, target.remembered());
    }

    @Test
    void onlyRequestsThatPassEveryOtherCheckAreRemembered()
    {
        final byte[] request = request(0);
        assertEquals(ConnectProof.WRONG_PROOF, target.checkRequest(new InetSocketAddress("10.0.0.9", 1337), request,
            0));
        assertEquals(0, target.remembered());

        sourceMillis = START_MILLIS + 62_000;
        final byte[] early = request(0);
        assertEquals("its clock is 62 s ahead of the target's: clocks must agree within 60 s",
            target.checkRequest(TARGET, early, 0));
        assertEquals(0, target.remembered());

        targetMillis += 2_000;
        assertNull(target.checkRequest(TARGET, early, 0));
        assertNull(target.checkRequest(TARGET, request, 0));
        assertEquals(2, target.remembered());
    }

    @Test
    void theCacheHoldsOnlyTheRequestsStillInTheirWindow()
    {
        for (int second = 0; second < 1000; second++)
        {
            sourceMillis = START_MILLIS + second * 1000L;
            targetMillis = sourceMillis;
            for (int i = 0; i < 10; i++)
            {
                assertNull(target.checkRequest(TARGET, request(0), 0));
            }
        }
        assertEquals(10 * (WINDOW + 1), target.remembered());
    }

    @Test
    void aBlockThatDoesNotFitIsRefused()
    {
        assertEquals("a proof of 24 bytes at offset 33 must fit in the 57 bytes of private data, and they in the 56 " +
            "bytes a REQ carries", assertThrows(IllegalArgumentException.class,
            () -> source.writeRequest(TARGET, new byte[57], 33)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> source.writeRequest(TARGET, new byte[24], 1));
        assertThrows(IllegalArgumentException.class, () -> target.writeReply(request(0), 0, new byte[197], 0));
        assertThrows(IllegalArgumentException.class, () -> target.writeReply(request(0), 0, new byte[16], 1));
    }

    private byte[] request(final int offset)
    {
        final byte[] data = new byte[offset + REQUEST_LENGTH];
        for (int i = 0; i < offset; i++)
        {
            data[i] = (byte)(i + 1);
        }
        source.writeRequest(TARGET, data, offset);
        return data;
    }

    private byte[] reply(final byte[] request, final int requestOffset, final int offset)
    {
        final byte[] reply = new byte[offset + REPLY_LENGTH];
        Arrays.fill(reply, 0, offset, (byte)0x5a);
        target.writeReply(request, requestOffset, reply, offset);
        return reply;
    }

    private static byte[] flip(final byte[] data, final int bit)
    {
        final byte[] flipped = data.clone();
        flipped[bit / 8] ^= (byte)(1 << bit % 8);
        return flipped;
    }

    private static byte[] hmac(final byte[] input) throws Exception
    {
        final Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
        return mac.doFinal(input);
    }

    static SharedSecret secret(final byte[] key)
    {
        return new SharedSecret(Path.of("secret"), key.clone());
    }
}
