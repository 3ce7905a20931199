package io.ibex.rdma.verbs;

/**
 * An asynchronous event, as {@code struct ibv_async_event}: the type and the resource it concerns.
 *
 * @param type    what happened.
 * @param qp      the queue pair concerned, or null.
 * @param cq      the completion queue concerned, or null.
 * @param portNum the port concerned, or 0.
 */
public record AsyncEvent(AsyncEventType type, QueuePair qp, CompletionQueue cq, int portNum)
{
}
