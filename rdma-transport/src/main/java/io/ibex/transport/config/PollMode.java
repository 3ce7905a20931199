package io.ibex.transport.config;

/**
 * How a channel waits for completions ({@code poll_mode}).
 */
public enum PollMode
{
    /** Poll the completion queue in a loop, as the C node-type always does; the idle strategy paces empty polls. */
    BUSY("busy"),
    /** Sleep on a completion channel until the completion queue has an event. */
    EVENT("event");

    private final String configName;

    PollMode(final String configName)
    {
        this.configName = configName;
    }

    /** @return the name in a config. */
    public String configName()
    {
        return configName;
    }

    /**
     * @param text "busy" or "event", in any case.
     * @return the mode.
     * @throws IllegalArgumentException naming the value and the accepted ones.
     */
    public static PollMode fromConfigName(final String text)
    {
        return ConfigNames.parse(values(), text, PollMode::configName);
    }
}
