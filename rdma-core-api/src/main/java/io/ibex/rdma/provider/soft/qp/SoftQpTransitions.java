package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpAttrMask;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.VerbsException;

/**
 * The QP state transition table of the IB specification, as {@code man ibv_modify_qp} lists it and the kernel
 * checks it ({@code ib_modify_qp_is_ok}, which rxe applies): which
 * transitions are legal and which attributes each one requires, per transport type; and the port and address vector
 * a modify may give.
 */
final class SoftQpTransitions
{
    private static final int EN_SQD_ASYNC_NOTIFY = 1 << 2;
    private static final int ALT_PATH = 1 << 14;
    private static final int PATH_MIG_STATE = 1 << 18;
    private static final int RESET_TO_INIT_CONNECTED = QpAttrMask.PKEY_INDEX | QpAttrMask.PORT |
        QpAttrMask.ACCESS_FLAGS;
    private static final int RESET_TO_INIT_UD = QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY;
    private static final int INIT_TO_RTR_RC = QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN |
        QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER;
    private static final int INIT_TO_RTR_UC = QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN |
        QpAttrMask.RQ_PSN;
    private static final int INIT_TO_RTR_OPTIONAL_CONNECTED = ALT_PATH | QpAttrMask.ACCESS_FLAGS |
        QpAttrMask.PKEY_INDEX;
    private static final int INIT_TO_RTR_OPTIONAL_UD = QpAttrMask.PKEY_INDEX | QpAttrMask.QKEY;
    private static final int RTR_TO_RTS_RC = QpAttrMask.SQ_PSN | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT |
        QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC;
    private static final int RTR_TO_RTS_OTHER = QpAttrMask.SQ_PSN;
    private static final int RTS_OPTIONAL_RC = QpAttrMask.CUR_STATE | QpAttrMask.ACCESS_FLAGS | ALT_PATH |
        PATH_MIG_STATE | QpAttrMask.MIN_RNR_TIMER;
    private static final int RTS_OPTIONAL_UC = QpAttrMask.CUR_STATE | QpAttrMask.ACCESS_FLAGS | ALT_PATH |
        PATH_MIG_STATE;
    private static final int RTS_OPTIONAL_UD = QpAttrMask.CUR_STATE | QpAttrMask.QKEY;
    private static final int SQD_TO_SQD_RC = QpAttrMask.PORT | QpAttrMask.AV | QpAttrMask.TIMEOUT |
        QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC | QpAttrMask.MAX_DEST_RD_ATOMIC |
        ALT_PATH | QpAttrMask.ACCESS_FLAGS | QpAttrMask.PKEY_INDEX | QpAttrMask.MIN_RNR_TIMER | PATH_MIG_STATE;
    private static final int SQD_TO_SQD_UC = QpAttrMask.AV | ALT_PATH | QpAttrMask.ACCESS_FLAGS |
        QpAttrMask.PKEY_INDEX | PATH_MIG_STATE;
    private static final int SQD_TO_SQD_UD = QpAttrMask.PKEY_INDEX | QpAttrMask.QKEY;
    private static final int SQE_TO_RTS_UC = QpAttrMask.CUR_STATE | QpAttrMask.ACCESS_FLAGS;
    private static final String[] MASK_NAMES = {
        "STATE", "CUR_STATE", "EN_SQD_ASYNC_NOTIFY", "ACCESS_FLAGS", "PKEY_INDEX", "PORT", "QKEY", "AV",
        "PATH_MTU", "TIMEOUT", "RETRY_CNT", "RNR_RETRY", "RQ_PSN", "MAX_QP_RD_ATOMIC", "ALT_PATH",
        "MIN_RNR_TIMER", "SQ_PSN", "MAX_DEST_RD_ATOMIC", "PATH_MIG_STATE", "CAP", "DEST_QPN"};

    private SoftQpTransitions()
    {
    }

    /**
     * Checks a transition.
     *
     * @param qpName the QP, for the message.
     * @param type   its transport type.
     * @param from   current state.
     * @param to     requested state.
     * @param mask   attributes given.
     * @throws VerbsException EINVAL naming both states and what is wrong.
     */
    static void check(final String qpName, final QpType type, final QpState from, final QpState to, final int mask)
    {
        if (from == QpState.RESET && to == QpState.ERR)
        {
            // the IB spec allows it, the kernel's table (ib_modify_qp_is_ok) does not: rxe says EINVAL
            throw new VerbsException(VerbsException.EINVAL, "modify " + qpName + " (" + type + ") RESET -> ERR: " +
                "not a legal transition (from RESET only RESET and INIT are)");
        }
        if (to == QpState.RESET || to == QpState.ERR)
        {
            final int disallowed = mask & ~(QpAttrMask.STATE | QpAttrMask.CUR_STATE);
            if (disallowed != 0)
            {
                throw new VerbsException(VerbsException.EINVAL, "modify " + qpName + " (" + type + ") " + from +
                    " -> " + to + ": attribute(s) not allowed in this transition: " + names(disallowed));
            }
            return;
        }
        final int required;
        final int optional;
        switch (from)
        {
            case RESET:
                if (to != QpState.INIT)
                {
                    throw illegal(qpName, type, from, to);
                }
                required = type == QpType.UD ? RESET_TO_INIT_UD : RESET_TO_INIT_CONNECTED;
                optional = 0;
                break;
            case INIT:
                if (to == QpState.INIT)
                {
                    required = 0;
                    optional = type == QpType.UD ? RESET_TO_INIT_UD : RESET_TO_INIT_CONNECTED;
                }
                else if (to == QpState.RTR)
                {
                    required = type == QpType.RC ? INIT_TO_RTR_RC : type == QpType.UC ? INIT_TO_RTR_UC : 0;
                    optional = type == QpType.UD ? INIT_TO_RTR_OPTIONAL_UD : INIT_TO_RTR_OPTIONAL_CONNECTED;
                }
                else
                {
                    throw illegal(qpName, type, from, to);
                }
                break;
            case RTR:
                if (to != QpState.RTS)
                {
                    throw illegal(qpName, type, from, to);
                }
                required = type == QpType.RC ? RTR_TO_RTS_RC : RTR_TO_RTS_OTHER;
                optional = rtsOptional(type);
                break;
            case RTS:
                if (to != QpState.RTS && to != QpState.SQD)
                {
                    throw illegal(qpName, type, from, to);
                }
                required = 0;
                optional = to == QpState.SQD ? EN_SQD_ASYNC_NOTIFY : rtsOptional(type);
                break;
            case SQD:
                if (to != QpState.RTS && to != QpState.SQD)
                {
                    throw illegal(qpName, type, from, to);
                }
                required = 0;
                optional = to == QpState.RTS ? rtsOptional(type) :
                    type == QpType.RC ? SQD_TO_SQD_RC : type == QpType.UC ? SQD_TO_SQD_UC : SQD_TO_SQD_UD;
                break;
            case SQE:
                if (to != QpState.RTS || type == QpType.RC)
                {
                    throw illegal(qpName, type, from, to); // RC has no SQE: a send error moves it to ERR
                }
                required = 0;
                optional = type == QpType.UC ? SQE_TO_RTS_UC : RTS_OPTIONAL_UD;
                break;
            default:
                throw illegal(qpName, type, from, to);
        }
        final int missing = required & ~mask;
        if (missing != 0)
        {
            throw new VerbsException(VerbsException.EINVAL, "modify " + qpName + " (" + type + ") " + from + " -> " +
                to + ": missing required attribute(s) " + names(missing));
        }
        final int disallowed = mask & ~(required | optional | QpAttrMask.STATE);
        if (disallowed != 0)
        {
            throw new VerbsException(VerbsException.EINVAL, "modify " + qpName + " (" + type + ") " + from + " -> " +
                to + ": attribute(s) not allowed in this transition: " + names(disallowed));
        }
    }

    /**
     * Checks the port and the address vector a modify gives: the device has port 1 only, and an RC/UC QP's address
     * vector needs a global route to a soft endpoint GID.
     *
     * @return the address vector's destination GID for an RC/UC QP, or null if the modify gives none.
     * @throws VerbsException EINVAL naming both states and what is wrong.
     */
    static Gid checkPath(final String qpName, final QpType type, final QpState from, final QpState to, final QpAttr attr)
    {
        if (attr.has(QpAttrMask.PORT) && attr.portNum() != 1)
        {
            throw new VerbsException(VerbsException.EINVAL, "modify " + qpName + " " + from + " -> " + to +
                ": port " + attr.portNum() + " does not exist (" + SoftDevice.NAME + " has port 1)");
        }
        if (type == QpType.UD || !attr.has(QpAttrMask.AV))
        {
            return null;
        }
        final Gid dgid = attr.ahAttr() == null ? null : attr.ahAttr().dgid();
        if (dgid == null || !attr.ahAttr().isGlobal() || !SoftGidDescriptor.isSoftEndpoint(dgid))
        {
            throw new VerbsException(VerbsException.EINVAL, "modify " + qpName + " " + from + " -> " +
                to + ": AV " + attr.ahAttr() + " needs a global route to a soft endpoint GID");
        }
        return dgid;
    }

    private static int rtsOptional(final QpType type)
    {
        return type == QpType.RC ? RTS_OPTIONAL_RC : type == QpType.UC ? RTS_OPTIONAL_UC : RTS_OPTIONAL_UD;
    }

    private static VerbsException illegal(final String qpName, final QpType type, final QpState from, final QpState to)
    {
        return new VerbsException(VerbsException.EINVAL, "modify " + qpName + " (" + type + "): illegal state " +
            "transition " + from + " -> " + to);
    }

    private static String names(final int mask)
    {
        final StringBuilder sb = new StringBuilder();
        for (int bit = 0; bit < MASK_NAMES.length; bit++)
        {
            if ((mask & (1 << bit)) != 0)
            {
                sb.append(sb.length() > 0 ? ", " : "").append(MASK_NAMES[bit]);
            }
        }
        return sb.toString();
    }
}
