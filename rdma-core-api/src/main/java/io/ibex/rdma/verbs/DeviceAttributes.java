package io.ibex.rdma.verbs;

/**
 * What {@code ibv_query_device} reports (the fields {@code ibv_devinfo -v} prints that this API uses).
 *
 * @param fwVer        firmware version text.
 * @param nodeGuid     node GUID.
 * @param sysImageGuid system image GUID.
 * @param maxMrSize    largest memory region in bytes.
 * @param pageSizeCap  supported page sizes (bit mask).
 * @param vendorId     IEEE vendor id.
 * @param vendorPartId vendor part id.
 * @param hwVer        hardware version.
 * @param maxQp        most queue pairs.
 * @param maxQpWr      most outstanding work requests per queue.
 * @param maxSge       most scatter/gather entries per work request.
 * @param maxCq        most completion queues.
 * @param maxCqe       most entries per completion queue.
 * @param maxMr        most memory regions.
 * @param maxPd        most protection domains.
 * @param maxQpRdAtom  most outstanding RDMA READ/atomic operations a QP can answer.
 * @param maxQpInitRdAtom most outstanding RDMA READ/atomic operations a QP can start.
 * @param atomicCap    0 none, 1 atomic within the HCA, 2 global.
 * @param maxAh        most address handles.
 * @param physPortCnt  number of ports (numbered from 1).
 */
public record DeviceAttributes(
    String fwVer,
    long nodeGuid,
    long sysImageGuid,
    long maxMrSize,
    long pageSizeCap,
    int vendorId,
    int vendorPartId,
    int hwVer,
    int maxQp,
    int maxQpWr,
    int maxSge,
    int maxCq,
    int maxCqe,
    int maxMr,
    int maxPd,
    int maxQpRdAtom,
    int maxQpInitRdAtom,
    int atomicCap,
    int maxAh,
    int physPortCnt)
{
}
