package io.ibex.transport.config;

/**
 * A config that cannot be read or does not make sense. The message starts with the location of what is wrong
 * ({@code "infiniband.conf:23:5: unknown key 'in.vectorise' (did you mean 'in.vectorize'?)"}).
 */
public final class ConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient ConfigLocation location;

    /**
     * @param location where the problem is.
     * @param problem  what is wrong, naming the key and the value.
     */
    public ConfigException(final ConfigLocation location, final String problem)
    {
        super(location + ": " + problem);
        this.location = location;
    }

    /**
     * @param location where the problem is.
     * @param problem  what is wrong.
     * @param cause    the exception that told us.
     */
    public ConfigException(final ConfigLocation location, final String problem, final Throwable cause)
    {
        super(location + ": " + problem, cause);
        this.location = location;
    }

    /** @return where the problem is. */
    public ConfigLocation location()
    {
        return location;
    }
}
