package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendWorkRequest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A direct buffer and the memory region it is registered as, with the accessors the tests read and write
 * memory through (absolute get/put, little-endian 64-bit values as the atomics use on x86).
 */
public final class RegisteredBuffer
{
    private final ByteBuffer buffer;
    private final MemoryRegion mr;

    private RegisteredBuffer(final ByteBuffer buffer, final MemoryRegion mr)
    {
        this.buffer = buffer;
        this.mr = mr;
    }

    /**
     * @param pd       protection domain.
     * @param capacity bytes.
     * @param access   access flags.
     * @return a new zeroed, registered buffer the provider allocated ({@link ProtectionDomain#allocateMemory}), as
     *         ibex's sample pools are: on the soft provider's shared-memory links, peers copy into it directly.
     */
    public static RegisteredBuffer allocate(final ProtectionDomain pd, final int capacity, final int access)
    {
        final MemoryRegion mr = pd.allocateMemory(capacity, access);
        return new RegisteredBuffer(mr.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN), mr);
    }

    /** @return the buffer (little-endian). */
    public ByteBuffer buffer()
    {
        return buffer;
    }

    /** @return the memory region. */
    public MemoryRegion mr()
    {
        return mr;
    }

    /**
     * @param offset offset in the buffer.
     * @return the address of that byte.
     */
    public long address(final int offset)
    {
        return mr.address() + offset;
    }

    /**
     * Fills the whole buffer with one value.
     *
     * @param value the byte.
     * @return this.
     */
    public RegisteredBuffer fill(final int value)
    {
        fill(buffer, value);
        return this;
    }

    /**
     * Fills a whole buffer, registered or not, with one value.
     *
     * @param buffer the buffer.
     * @param value  the byte.
     */
    public static void fill(final ByteBuffer buffer, final int value)
    {
        for (int i = 0; i < buffer.capacity(); i++)
        {
            buffer.put(i, (byte)value);
        }
    }

    /**
     * Writes a recognisable pattern: byte i is {@code seed + i}.
     *
     * @param offset first byte.
     * @param length bytes.
     * @param seed   the pattern's seed.
     * @return this.
     */
    public RegisteredBuffer pattern(final int offset, final int length, final int seed)
    {
        for (int i = 0; i < length; i++)
        {
            buffer.put(offset + i, (byte)(seed + i));
        }
        return this;
    }

    /**
     * @param offset first byte.
     * @param length bytes.
     * @return a copy of the bytes.
     */
    public byte[] bytes(final int offset, final int length)
    {
        final byte[] copy = new byte[length];
        buffer.get(offset, copy);
        return copy;
    }

    /**
     * @param offset offset of a 64-bit value.
     * @return the value, little-endian.
     */
    public long getLong(final int offset)
    {
        return buffer.getLong(offset);
    }

    /**
     * @param offset offset of a 64-bit value.
     * @param value  the value, little-endian.
     * @return this.
     */
    public RegisteredBuffer putLong(final int offset, final long value)
    {
        buffer.putLong(offset, value);
        return this;
    }

    /**
     * @param wrId   work request id.
     * @param offset first byte of the payload.
     * @param length payload bytes.
     * @return a signaled SEND of that part of the buffer.
     */
    public SendWorkRequest send(final long wrId, final int offset, final int length)
    {
        final SendWorkRequest wr = new SendWorkRequest().wrId(wrId).opcode(SendOpcode.SEND)
            .sendFlags(SendFlags.SIGNALED);
        wr.sge(0).set(mr, offset, length);
        return wr;
    }

    /**
     * @param opcode an RDMA or atomic opcode.
     * @param wrId   work request id.
     * @param offset first local byte.
     * @param length local bytes.
     * @param remote the peer's buffer.
     * @param remoteOffset offset in the peer's buffer.
     * @return a signaled request of that part of the buffer at the peer's buffer.
     */
    public SendWorkRequest remote(
        final SendOpcode opcode,
        final long wrId,
        final int offset,
        final int length,
        final RegisteredBuffer remote,
        final int remoteOffset)
    {
        final SendWorkRequest wr = new SendWorkRequest().wrId(wrId).opcode(opcode).sendFlags(SendFlags.SIGNALED)
            .remote(remote.address(remoteOffset), remote.mr().rkey());
        wr.sge(0).set(mr, offset, length);
        return wr;
    }

    /**
     * @param wrId   work request id.
     * @param offset first byte.
     * @param length bytes.
     * @return a receive into that part of the buffer.
     */
    public ReceiveWorkRequest recv(final long wrId, final int offset, final int length)
    {
        final ReceiveWorkRequest wr = new ReceiveWorkRequest().wrId(wrId);
        wr.sge(0).set(mr, offset, length);
        return wr;
    }
}
