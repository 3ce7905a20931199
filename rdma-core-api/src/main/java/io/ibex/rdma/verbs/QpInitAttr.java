package io.ibex.rdma.verbs;

import java.util.Objects;

/**
 * What a queue pair is created with, as {@code struct ibv_qp_init_attr}.
 *
 * @param type      RC, UC or UD.
 * @param sendCq    CQ for send completions.
 * @param recvCq    CQ for receive completions (may be the same as sendCq).
 * @param cap       requested capabilities.
 * @param sqSigAll  every send generates a completion, whatever its {@link SendFlags#SIGNALED} flag.
 */
public record QpInitAttr(QpType type, CompletionQueue sendCq, CompletionQueue recvCq, QpCapabilities cap,
    boolean sqSigAll)
{
    /**
     * Checks that nothing is missing.
     *
     * @param type      RC, UC or UD.
     * @param sendCq    CQ for send completions.
     * @param recvCq    CQ for receive completions (may be the same as sendCq).
     * @param cap       requested capabilities.
     * @param sqSigAll  every send generates a completion, whatever its {@link SendFlags#SIGNALED} flag.
     */
    public QpInitAttr
    {
        Objects.requireNonNull(type, "QpInitAttr.type");
        Objects.requireNonNull(sendCq, "QpInitAttr.sendCq");
        Objects.requireNonNull(recvCq, "QpInitAttr.recvCq");
        Objects.requireNonNull(cap, "QpInitAttr.cap");
    }
}
