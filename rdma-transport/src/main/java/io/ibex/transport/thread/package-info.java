/**
 * Thread placement: {@link io.ibex.transport.thread.ThreadPlacement} pins a thread to CPUs and gives it a real-time
 * priority, as VILLASnode's {@code affinity} and {@code priority} do, for the threads that poll channels.
 */
package io.ibex.transport.thread;
