package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.wire.SoftLinkToken;
import io.ibex.rdma.verbs.Gid;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.*;

/**
 * Flyweight over one connection-manager frame laid out as {@link CmMessageDescriptor} describes: {@link #wrap}
 * a buffer at an offset, then read or write the fields in place. Only the getters that return a GID or an array
 * allocate, and {@link #validateHeader} the text of what it finds wrong. Not thread-safe: one per connection and
 * direction.
 */
final class CmMessage
{
    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

    private MutableDirectBuffer buffer;
    private int offset;

    /**
     * @param buffer the buffer holding the frame.
     * @param offset where the frame starts.
     * @return this.
     */
    CmMessage wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Starts a new frame: writes magic, version, type and port space, and zeroes the rest of the header.
     *
     * @param type      a TYPE_* value.
     * @param portSpace the port space of the connection.
     * @return this.
     */
    CmMessage header(final int type, final PortSpace portSpace)
    {
        buffer.setMemory(offset, HEADER_LENGTH, (byte)0);
        buffer.putInt(offset + MAGIC_OFFSET, MAGIC, ORDER);
        buffer.putByte(offset + VERSION_OFFSET, (byte)VERSION);
        buffer.putByte(offset + TYPE_OFFSET, (byte)type);
        buffer.putShort(offset + PORT_SPACE_OFFSET, (short)portSpace.value(), ORDER);
        return this;
    }

    /**
     * Checks a received header.
     *
     * @return null if the header is valid, else what is wrong with it.
     */
    String validateHeader()
    {
        final int magic = buffer.getInt(offset + MAGIC_OFFSET, ORDER);
        if (magic != MAGIC)
        {
            return String.format("magic=0x%08x, expected 0x%08x", magic, MAGIC);
        }
        final int version = buffer.getByte(offset + VERSION_OFFSET) & 0xff;
        if (version != VERSION)
        {
            return "version=" + version + ", expected " + VERSION;
        }
        final int type = type();
        if (!isValidType(type))
        {
            return "type=" + type + " is not a CM message type";
        }
        if (portSpace() == null)
        {
            return String.format("portSpace=0x%04x is not an rdma_port_space", portSpaceValue());
        }
        final int length = privateDataLength();
        final int max = maxPrivateData(type, portSpace());
        if (length > max)
        {
            return "privateDataLength=" + length + " exceeds " + max + " for " + typeName(type) + " in " +
                portSpace();
        }
        if (type == TYPE_REQ || type == TYPE_REP)
        {
            return validateEndpoint();
        }
        return null;
    }

    private String validateEndpoint()
    {
        if ((qpNum() & ~QP_NUM_MASK) != 0)
        {
            return typeName(type()) + " qpNum=" + Integer.toUnsignedString(qpNum()) + " exceeds 24 bits";
        }
        if (retryCount() > MAX_RETRY_COUNT || rnrRetryCount() > MAX_RETRY_COUNT)
        {
            return typeName(type()) + " retryCount=" + retryCount() + ", rnrRetryCount=" + rnrRetryCount() +
                " must be in 0.." + MAX_RETRY_COUNT;
        }
        return null;
    }

    /** @return the whole frame's length. */
    int frameLength()
    {
        return HEADER_LENGTH + privateDataLength();
    }

    /** @return the message type. */
    int type()
    {
        return buffer.getByte(offset + TYPE_OFFSET) & 0xff;
    }

    /** @return the raw port space value. */
    int portSpaceValue()
    {
        return buffer.getShort(offset + PORT_SPACE_OFFSET, ORDER) & 0xffff;
    }

    /** @return the port space, or null if the value is not one. */
    PortSpace portSpace()
    {
        final int value = portSpaceValue();
        for (final PortSpace ps : PortSpace.values())
        {
            if (ps.value() == value)
            {
                return ps;
            }
        }
        return null;
    }

    /** @return the sender's QP number. */
    int qpNum()
    {
        return buffer.getInt(offset + QP_NUM_OFFSET, ORDER);
    }

    /**
     * @param qpNum the sender's QP number.
     * @return this.
     */
    CmMessage qpNum(final int qpNum)
    {
        buffer.putInt(offset + QP_NUM_OFFSET, qpNum, ORDER);
        return this;
    }

    /** @return the sender's starting send PSN. */
    int startPsn()
    {
        return buffer.getInt(offset + START_PSN_OFFSET, ORDER) & 0xffffff;
    }

    /**
     * @param psn the sender's starting send PSN.
     * @return this.
     */
    CmMessage startPsn(final int psn)
    {
        buffer.putInt(offset + START_PSN_OFFSET, psn & 0xffffff, ORDER);
        return this;
    }

    /** @return the sender's Q_Key. */
    int qkey()
    {
        return buffer.getInt(offset + QKEY_OFFSET, ORDER);
    }

    /**
     * @param qkey the sender's Q_Key.
     * @return this.
     */
    CmMessage qkey(final int qkey)
    {
        buffer.putInt(offset + QKEY_OFFSET, qkey, ORDER);
        return this;
    }

    /** @return the reject reason or SIDR status. */
    int status()
    {
        return buffer.getInt(offset + STATUS_OFFSET, ORDER);
    }

    /**
     * @param status the reject reason or SIDR status.
     * @return this.
     */
    CmMessage status(final int status)
    {
        buffer.putInt(offset + STATUS_OFFSET, status, ORDER);
        return this;
    }

    /** @return the sender's responder resources. */
    int responderResources()
    {
        return buffer.getByte(offset + RESPONDER_RESOURCES_OFFSET) & 0xff;
    }

    /** @return the sender's initiator depth. */
    int initiatorDepth()
    {
        return buffer.getByte(offset + INITIATOR_DEPTH_OFFSET) & 0xff;
    }

    /** @return the sender's retry count. */
    int retryCount()
    {
        return buffer.getByte(offset + RETRY_COUNT_OFFSET) & 0xff;
    }

    /** @return the sender's RNR retry count. */
    int rnrRetryCount()
    {
        return buffer.getByte(offset + RNR_RETRY_COUNT_OFFSET) & 0xff;
    }

    /**
     * @param responderResources RDMA READ/atomic operations the sender answers.
     * @param initiatorDepth     RDMA READ/atomic operations the sender starts.
     * @param retryCount         transport retries.
     * @param rnrRetryCount      RNR retries.
     * @return this.
     */
    CmMessage resources(
        final int responderResources, final int initiatorDepth, final int retryCount, final int rnrRetryCount)
    {
        buffer.putByte(offset + RESPONDER_RESOURCES_OFFSET, (byte)responderResources);
        buffer.putByte(offset + INITIATOR_DEPTH_OFFSET, (byte)initiatorDepth);
        buffer.putByte(offset + RETRY_COUNT_OFFSET, (byte)retryCount);
        buffer.putByte(offset + RNR_RETRY_COUNT_OFFSET, (byte)rnrRetryCount);
        return this;
    }

    /** @return the sender's GID. */
    Gid gid()
    {
        final byte[] raw = new byte[Gid.LENGTH];
        buffer.getBytes(offset + GID_OFFSET, raw);
        return Gid.of(raw);
    }

    /**
     * @param gid the sender's GID.
     * @return this.
     */
    CmMessage gid(final Gid gid)
    {
        for (int i = 0; i < Gid.LENGTH; i++)
        {
            buffer.putByte(offset + GID_OFFSET + i, gid.byteAt(i));
        }
        return this;
    }

    /** @return a copy of the link token (zeros but in the REP of a connected port space). */
    byte[] linkToken()
    {
        final byte[] token = new byte[SoftLinkToken.LENGTH];
        buffer.getBytes(offset + LINK_TOKEN_OFFSET, token);
        return token;
    }

    /**
     * @param token the connection's link token.
     * @return this.
     */
    CmMessage linkToken(final byte[] token)
    {
        buffer.putBytes(offset + LINK_TOKEN_OFFSET, token);
        return this;
    }

    /** @return the private data length. */
    int privateDataLength()
    {
        return buffer.getShort(offset + PRIVATE_DATA_LENGTH_OFFSET, ORDER) & 0xffff;
    }

    /** @return the private data as rdma_cm delivers it: padded with zeros to the message type's fixed size. */
    byte[] deliveredPrivateData()
    {
        final byte[] data = new byte[maxPrivateData(type(), portSpace())];
        buffer.getBytes(offset + HEADER_LENGTH, data, 0, privateDataLength());
        return data;
    }

    /**
     * @param data private data, already checked against the type's limit.
     * @return this.
     */
    CmMessage privateData(final byte[] data)
    {
        buffer.putShort(offset + PRIVATE_DATA_LENGTH_OFFSET, (short)data.length, ORDER);
        buffer.putBytes(offset + HEADER_LENGTH, data);
        return this;
    }
}
