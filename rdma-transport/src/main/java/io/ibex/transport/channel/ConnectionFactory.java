package io.ibex.transport.channel;

import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.verbs.AsyncEvent;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.transport.config.ChannelConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Queue;

/**
 * Makes the {@link Connection} of an rdma_cm id: its queue pair on the channel's completion queues with the
 * capabilities the config asks for (on UC, a UC queue pair beside the RC one rdma_cm needs, connected out of band by
 * {@link UcEndpoint}), its asynchronous events routed to the connector ({@link AsyncEvents}). Used by the connector's
 * thread only; the connections it makes belong to the connector.
 */
final class ConnectionFactory
{
    /** How the failure of a channel whose queue pair the device refused starts. */
    static final String QP_REFUSED = "the device refused the connection's queue pair: ";
    /** Logs as the connector: one category for everything about a channel's connections. */
    private static final Logger LOG = LoggerFactory.getLogger(ChannelConnector.class);

    private final ChannelConfig config;
    private final QpType qpType;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue receiveCq;
    private final Queue<AsyncEvent> asyncEvents;
    private final ChannelConnector.Listener listener;
    private final RnrTuning rnrTuning;

    /**
     * @param asyncEvents where the asynchronous events of each new connection's queue pair go.
     * @param listener    told when the device refuses a queue pair.
     */
    ConnectionFactory(final ChannelConfig config, final QpType qpType, final ProtectionDomain pd,
        final CompletionQueue sendCq, final CompletionQueue receiveCq, final Queue<AsyncEvent> asyncEvents,
        final ChannelConnector.Listener listener)
    {
        this.config = config;
        this.qpType = qpType;
        this.pd = pd;
        this.sendCq = sendCq;
        this.receiveCq = receiveCq;
        this.asyncEvents = asyncEvents;
        this.listener = listener;
        this.rnrTuning = new RnrTuning(config.name());
    }

    /** @return the type of the queue pairs it makes (the data QP's on UC). */
    QpType qpType()
    {
        return qpType;
    }

    /** @return the protection domain the queue pairs are made in. */
    ProtectionDomain pd()
    {
        return pd;
    }

    /**
     * @param id       the rdma_cm id: a source's once its route is resolved, or a target's new child.
     * @param outgoing whether this end requested the connection.
     * @return the connection, or null after failing the channel: the device refusing the QP the config asks for (an
     *     out.max_inline_data above its maximum, say) would refuse it at every attempt, so neither falling back to
     *     listening nor trying again could help, and the user must hear the reason rather than wait.
     */
    Connection newConnectionOrFail(final CmId id, final boolean outgoing)
    {
        try
        {
            final Connection connection = newConnection(id, outgoing);
            AsyncEvents.own(connection.qp(), asyncEvents);
            return connection;
        }
        catch (final RuntimeException ex)
        {
            listener.failed(QP_REFUSED + ex.getMessage(), ex);
            return null;
        }
    }

    /**
     * Target side of the UC handshake: connects the new connection's UC QP to the source's; closes the connection
     * if that fails.
     *
     * @param peer      the source's UC endpoint, from its request.
     * @param linkToken the token the reply carries.
     */
    void connectUcOrClose(final UcEndpoint peer, final Connection connection, final byte[] linkToken)
    {
        try
        {
            peer.connect(connection.qp(), connection.ucLocal(), linkToken, pd.context());
        }
        catch (final RuntimeException ex)
        {
            connection.close();
            throw ex;
        }
    }

    /**
     * Source side of the UC handshake: connects the UC QP to what the target accepted with.
     *
     * @param privateData the target's reply: its UC endpoint and link token.
     */
    void connectUc(final Connection connection, final byte[] privateData)
    {
        UcEndpoint.decode(privateData).connect(connection.qp(), connection.ucLocal(),
            UcEndpoint.linkToken(privateData), pd.context());
    }

    /** RC, once rdma_cm moved the QP to RTS: see {@link RnrTuning}. */
    void tuneRnr(final Connection connection)
    {
        if (qpType == QpType.RC)
        {
            rnrTuning.apply(connection.qp(), connection);
        }
    }

    private Connection newConnection(final CmId id, final boolean outgoing)
    {
        final QpCapabilities cap = new QpCapabilities(config.out().maxWrs(), config.in().maxWrs(), 1, 1,
            config.out().maxInlineData());
        if (qpType == QpType.UC)
        {
            id.createQp(pd, new QpInitAttr(QpType.RC, sendCq, receiveCq, new QpCapabilities(1, 1, 1, 1, 0), false));
            final QueuePair uc = pd.createQp(new QpInitAttr(QpType.UC, sendCq, receiveCq, cap, false));
            try
            {
                UcEndpoint.init(uc);
                return new Connection(id, logInline(uc), outgoing, UcEndpoint.local(uc, pd.context(),
                    config.in().address().getAddress()));
            }
            catch (final RuntimeException ex)
            {
                uc.close();
                throw ex;
            }
        }
        return new Connection(id, logInline(id.createQp(pd, new QpInitAttr(qpType, sendCq, receiveCq, cap, false))),
            outgoing, null);
    }

    private QueuePair logInline(final QueuePair qp)
    {
        if (config.out().maxInlineData() > 0 && qp.capabilities().maxInlineData() != config.out().maxInlineData())
        {
            LOG.info("{}: the QP takes {} inline bytes (out.max_inline_data = {})", config.name(),
                qp.capabilities().maxInlineData(), config.out().maxInlineData());
        }
        return qp;
    }
}
