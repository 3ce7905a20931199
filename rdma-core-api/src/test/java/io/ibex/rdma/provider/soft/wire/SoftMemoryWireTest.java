package io.ibex.rdma.provider.soft.wire;

/**
 * The in-memory wire between two QPs of one device.
 */
class SoftMemoryWireTest extends SoftWireContract
{
    @Override
    SoftWire[] open()
    {
        return SoftMemoryWire.pair(0x11, 0x12);
    }
}
