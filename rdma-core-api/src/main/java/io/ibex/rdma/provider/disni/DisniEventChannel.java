package io.ibex.rdma.provider.disni;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.cm.UdParams;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.Gid;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An rdma_cm event channel: IbexNative's cmGetEvent reads (and acks) each event, and cmEventDetails
 * returns what it carried (status, connection parameters, private data, UD parameters). The channel is the parent of its ids: closing it closes them, with their QPs.
 */
final class DisniEventChannel extends ProviderResource implements EventChannel
{
    private static final CmEventType[] TYPES = CmEventType.values();

    private final DisniProvider provider;
    private final long handle;
    private final Map<Long, DisniCmId> ids = new ConcurrentHashMap<>();
    /**
     * One reader at a time: the details IbexNative keeps are those of the channel's last event; and close
     * waits for the reader, so that it never destroys the channel under it.
     */
    private final Object readLock = new Object();
    /** Set by close: a reader gives up at its next slice, so close waits a slice at most. */
    private volatile boolean closing;
    private boolean destroyed;

    DisniEventChannel(final DisniProvider provider)
    {
        super(DisniProvider.LIVE);
        this.provider = provider;
        this.handle = IbexNative.cmCreateEventChannel();
    }

    @Override
    public CmId createId(final PortSpace portSpace)
    {
        ensureOpen();
        final long id = IbexNative.cmCreateId(handle, portSpace.value(), portSpace.qpType().value());
        return track(new DisniCmId(this, portSpace, id));
    }

    /**
     * Waits until the deadline even when a signal or another reader ended one wait early; events of ids
     * closed meanwhile are skipped. A close from another thread ends the wait within
     * {@link DisniCompletionChannel#WAIT_SLICE_MILLIS} (null, as for a timeout).
     */
    @Override
    public CmEvent getEvent(final long timeoutMillis)
    {
        ensureOpen();
        final long deadline = System.nanoTime() + Math.max(0, timeoutMillis) * 1_000_000L;
        synchronized (readLock)
        {
            if (destroyed)
            {
                throw new IllegalStateException(this + " is closed");
            }
            do
            {
                if (closing)
                {
                    return null;
                }
                final CmEvent event = next(DisniCompletionChannel.sliceMillis(deadline));
                if (event != null)
                {
                    return event;
                }
            }
            while (System.nanoTime() - deadline < 0);
        }
        return null;
    }

    DisniProvider provider()
    {
        return provider;
    }

    void forget(final DisniCmId id)
    {
        ids.remove(id.handle(), id);
    }

    @Override
    protected String describe()
    {
        return "rdma_cm event channel 0x" + Long.toHexString(handle);
    }

    @Override
    protected int closeRank()
    {
        return 0;
    }

    @Override
    protected void release()
    {
        closing = true;
        closeChildren();
        synchronized (readLock)
        {
            IbexNative.cmDestroyEventChannel(handle);
            destroyed = true;
        }
    }

    private DisniCmId track(final DisniCmId id)
    {
        ids.put(id.handle(), id);
        return adopt(id);
    }

    private CmEvent next(final int timeoutMillis)
    {
        final long[] handles = new long[2];
        final int event = IbexNative.cmGetEvent(handle, timeoutMillis, handles);
        if (event < 0)
        {
            return null;
        }
        final CmEventType type = TYPES[event];
        final long[] details = new long[IbexNative.CM_EVENT_LENGTH];
        final byte[] dgid = new byte[Gid.LENGTH];
        final byte[] privateData = new byte[255];
        final int privateLength = IbexNative.cmEventDetails(handle, details, dgid, privateData);
        final DisniCmId listener = handles[0] == 0 ? null : ids.get(handles[0]);
        final DisniCmId id;
        if (type == CmEventType.CONNECT_REQUEST)
        {
            if (listener == null || listener.isClosed())
            {
                return null; // cannot happen: a listener's requests go when it is destroyed
            }
            id = track(new DisniCmId(this, listener.portSpace(), handles[1]));
        }
        else
        {
            id = handles[1] == 0 ? null : ids.get(handles[1]);
            if (id == null)
            {
                return null;
            }
            id.onEvent();
        }
        final boolean ud = details[IbexNative.CM_IS_UD] != 0;
        final int qpNum = (int)details[IbexNative.CM_QP_NUM];
        final boolean carriesQpNum = type == CmEventType.CONNECT_REQUEST || type == CmEventType.ESTABLISHED;
        return new CmEvent(type, id, listener, (int)details[IbexNative.CM_STATUS],
            Arrays.copyOf(privateData, Math.min(privateLength, privateData.length)), carriesQpNum ? qpNum : 0,
            ud ? new UdParams(qpNum, (int)details[IbexNative.CM_QKEY], ahAttr(details, dgid)) : null);
    }

    private static AhAttr ahAttr(final long[] details, final byte[] dgid)
    {
        final int at = IbexNative.CM_AH;
        final boolean global = details[at + IbexNative.AH_IS_GLOBAL] != 0;
        return new AhAttr((int)details[at + IbexNative.AH_DLID], (int)details[at + IbexNative.AH_SL],
            (int)details[at + IbexNative.AH_PORT_NUM], global, global ? Gid.of(dgid) : null,
            (int)details[at + IbexNative.AH_SGID_INDEX], (int)details[at + IbexNative.AH_HOP_LIMIT],
            (int)details[at + IbexNative.AH_FLOW_LABEL], (int)details[at + IbexNative.AH_TRAFFIC_CLASS]);
    }
}
