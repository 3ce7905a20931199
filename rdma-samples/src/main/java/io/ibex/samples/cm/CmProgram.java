package io.ibex.samples.cm;

import io.ibex.rdma.cm.CmEvent;

import java.util.function.Consumer;

/**
 * The frame of every rdma_cm program: an event channel on the chosen provider and the resources the program
 * creates on it, all released in reverse order of creation however the program ends.
 */
final class CmProgram
{
    /**
     * What a program does with its connection manager.
     */
    @FunctionalInterface
    interface Body
    {
        /**
         * @param cm        the connection manager, on a channel of its own.
         * @param resources where to put every resource created, to be released when the program ends.
         */
        void run(CmSequence cm, ResourceStack resources);
    }

    private CmProgram()
    {
    }

    /**
     * Runs a program.
     *
     * @param options  the provider and the time limit of each wait.
     * @param eventLog sees every connection-manager event as it arrives (a debug print), or does nothing.
     * @param body     the program.
     */
    static void run(final CmOptions options, final Consumer<CmEvent> eventLog, final Body body)
    {
        try (ResourceStack resources = new ResourceStack())
        {
            body.run(CmSequence.open(options, resources, eventLog), resources);
        }
    }
}
