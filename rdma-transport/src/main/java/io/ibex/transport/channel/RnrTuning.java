package io.ibex.transport.channel;

import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.VerbsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sets a connected RC queue pair's receiver-not-ready handling as a channel needs it, once rdma_cm has moved
 * it to RTS and before anything is sent: the shortest RNR NAK timer, and RNR retries without end.
 * <p>
 * rdma_cm gives the active side the rnr_retry_count of the peer's accept: a VILLASnode target accepts with 0, so
 * its source's first send that meets no posted receive would fail with RNR_RETRY_EXC_ERR and end the connection.
 * RTS cannot change rnr_retry, SQD can (the IB spec's SQD to SQD transition): RTS to SQD, SQD to SQD with
 * rnr_retry 7, back to RTS. The connector's thread only.
 */
final class RnrTuning
{
    /** RNR retries without end: the value rdma_cm's peers are asked for and a channel's QPs are set to. */
    static final int RNR_RETRY_FOREVER = 7;
    /**
     * The RNR NAK timer: 1 encodes 0.01 ms, the shortest. rdma_cm leaves the IB CM's 0, which encodes 655.36 ms, so
     * a source one sample ahead of its target's posted receives would stall that long.
     */
    static final int MIN_RNR_TIMER = 1;
    private static final Logger LOG = LoggerFactory.getLogger(RnrTuning.class);
    /** How long SQD may take to drain: the send queue is empty here, but rxe drains in a task of its own. */
    private static final long DRAIN_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long DRAIN_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final String channelName;
    private boolean loggedGrant;

    /** @param channelName the channel, for the log. */
    RnrTuning(final String channelName)
    {
        this.channelName = channelName;
    }

    /**
     * Tunes a queue pair just moved to RTS with nothing posted to send yet. A device that refuses keeps the QP as
     * it was, with a warning that says what that means.
     *
     * @param qp         the connection's queue pair (RC, in RTS).
     * @param connection the connection, for the log.
     */
    void apply(final QueuePair qp, final Object connection)
    {
        final int granted = qp.query().rnrRetry();
        if (granted >= RNR_RETRY_FOREVER)
        {
            shortenTimer(qp, connection);
            return;
        }
        if (!loggedGrant)
        {
            loggedGrant = true;
            LOG.info("{}: the peer granted rnr_retry_count {} (VILLASnode accepts with 0): raising it to {} through " +
                "SQD on {}, so a send that meets no posted receive waits instead of failing", channelName, granted,
                RNR_RETRY_FOREVER, connection);
        }
        try
        {
            qp.modify(new QpAttr().state(QpState.SQD));
            modifyOnceDrained(qp, new QpAttr().state(QpState.SQD).rnrRetry(RNR_RETRY_FOREVER));
            qp.modify(new QpAttr().state(QpState.RTS).minRnrTimer(MIN_RNR_TIMER));
        }
        catch (final VerbsException ex)
        {
            backToRts(qp);
            LOG.warn("{}: cannot raise rnr_retry on {} ({}): with the peer's {} retries, a send that finds no " +
                "receive posted fails the connection, which the channel then reconnects or ends", channelName,
                connection, ex.getMessage(), granted);
        }
    }

    /** SQD to SQD is refused while the send queue drains: try again until the bound. */
    private static void modifyOnceDrained(final QueuePair qp, final QpAttr attr)
    {
        final long deadline = System.nanoTime() + DRAIN_WAIT_NANOS;
        while (true)
        {
            try
            {
                qp.modify(attr);
                return;
            }
            catch (final VerbsException ex)
            {
                if (System.nanoTime() - deadline >= 0)
                {
                    throw ex;
                }
                LockSupport.parkNanos(DRAIN_POLL_NANOS);
            }
        }
    }

    private static void backToRts(final QueuePair qp)
    {
        try
        {
            if (qp.query().state() == QpState.SQD)
            {
                qp.modify(new QpAttr().state(QpState.RTS));
            }
        }
        catch (final VerbsException ex)
        {
            LOG.debug("leaving SQD failed: {}", ex.getMessage());
        }
    }

    private void shortenTimer(final QueuePair qp, final Object connection)
    {
        try
        {
            qp.modify(new QpAttr().state(QpState.RTS).minRnrTimer(MIN_RNR_TIMER));
        }
        catch (final VerbsException ex)
        {
            LOG.warn("{}: keeping rdma_cm's RNR timer of 655 ms on {}: {}", channelName, connection, ex.getMessage());
        }
    }
}
