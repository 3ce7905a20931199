package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
/** The soft wire's layout ({@link SoftFrameDescriptor}, package-private) for tests of other packages that forge frames. */
public final class SoftFrames
{
    /** {@link SoftFrameDescriptor#ACK_PSN_OFFSET}. */
    public static final int ACK_PSN_OFFSET = SoftFrameDescriptor.ACK_PSN_OFFSET;
    /** {@link SoftFrameDescriptor#FLAGS_OFFSET}. */
    public static final int FLAGS_OFFSET = SoftFrameDescriptor.FLAGS_OFFSET;
    /** {@link SoftFrameDescriptor#FLAG_ACK_REQUEST}. */
    public static final byte FLAG_ACK_REQUEST = SoftFrameDescriptor.FLAG_ACK_REQUEST;
    /** {@link SoftFrameDescriptor#HEADER_LENGTH}. */
    public static final int HEADER_LENGTH = SoftFrameDescriptor.HEADER_LENGTH;
    /** {@link SoftFrameDescriptor#HELLO_DST_QPN_OFFSET}. */
    public static final int HELLO_DST_QPN_OFFSET = SoftFrameDescriptor.HELLO_DST_QPN_OFFSET;
    /** {@link SoftFrameDescriptor#HELLO_LENGTH}. */
    public static final int HELLO_LENGTH = SoftFrameDescriptor.HELLO_LENGTH;
    /** {@link SoftFrameDescriptor#HELLO_MAGIC}. */
    public static final int HELLO_MAGIC = SoftFrameDescriptor.HELLO_MAGIC;
    /** {@link SoftFrameDescriptor#HELLO_MAGIC_OFFSET}. */
    public static final int HELLO_MAGIC_OFFSET = SoftFrameDescriptor.HELLO_MAGIC_OFFSET;
    /** {@link SoftFrameDescriptor#HELLO_SRC_IPV4_OFFSET}. */
    public static final int HELLO_SRC_IPV4_OFFSET = SoftFrameDescriptor.HELLO_SRC_IPV4_OFFSET;
    /** {@link SoftFrameDescriptor#HELLO_SRC_PORT_OFFSET}. */
    public static final int HELLO_SRC_PORT_OFFSET = SoftFrameDescriptor.HELLO_SRC_PORT_OFFSET;
    /** {@link SoftFrameDescriptor#HELLO_SRC_QPN_OFFSET}. */
    public static final int HELLO_SRC_QPN_OFFSET = SoftFrameDescriptor.HELLO_SRC_QPN_OFFSET;
    /** {@link SoftFrameDescriptor#HELLO_TOKEN_OFFSET}. */
    public static final int HELLO_TOKEN_OFFSET = SoftFrameDescriptor.HELLO_TOKEN_OFFSET;
    /** {@link SoftFrameDescriptor#HELLO_VERSION}. */
    public static final int HELLO_VERSION = SoftFrameDescriptor.HELLO_VERSION;
    /** {@link SoftFrameDescriptor#HELLO_VERSION_OFFSET}. */
    public static final int HELLO_VERSION_OFFSET = SoftFrameDescriptor.HELLO_VERSION_OFFSET;
    /** {@link SoftFrameDescriptor#MESSAGE_LENGTH_OFFSET}. */
    public static final int MESSAGE_LENGTH_OFFSET = SoftFrameDescriptor.MESSAGE_LENGTH_OFFSET;
    /** {@link SoftFrameDescriptor#OPCODE_OFFSET}. */
    public static final int OPCODE_OFFSET = SoftFrameDescriptor.OPCODE_OFFSET;
    /** {@link SoftFrameDescriptor#OP_SEND}. */
    public static final byte OP_SEND = SoftFrameDescriptor.OP_SEND;
    /** {@link SoftFrameDescriptor#PSN_MASK}. */
    public static final int PSN_MASK = SoftFrameDescriptor.PSN_MASK;
    /** {@link SoftFrameDescriptor#PSN_OFFSET}. */
    public static final int PSN_OFFSET = SoftFrameDescriptor.PSN_OFFSET;
    /** {@link SoftFrameDescriptor#SEGMENT_LENGTH_OFFSET}. */
    public static final int SEGMENT_LENGTH_OFFSET = SoftFrameDescriptor.SEGMENT_LENGTH_OFFSET;

    private SoftFrames()
    {
    }
}
