package io.ibex.transport.channel;

/**
 * Where a channel is in its life, the states of the C node-type: created (INITIALIZED), given its config
 * (PARSED), checked (CHECKED), started (STARTED, with a connection being set up or awaited), connected
 * (CONNECTED, back to STARTED when the peer goes), stopped (STOPPED, may start again), closed (DESTROYED).
 */
public enum ChannelState
{
    /** Created, no config yet. */
    INITIALIZED,
    /** Has its config. */
    PARSED,
    /** Its config passed the node-type's checks. */
    CHECKED,
    /** Resources are allocated; a source is connecting or a target listening. */
    STARTED,
    /** A peer is connected: samples flow. */
    CONNECTED,
    /** Resources are freed; {@link SampleChannel#start()} may run again. */
    STOPPED,
    /** Closed for good. */
    DESTROYED
}
