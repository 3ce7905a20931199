package io.ibex.rdma;

import io.ibex.rdma.spi.RdmaProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/**
 * Finds and chooses {@link RdmaProvider}s. A caller names one ({@code soft}, {@code disni}), or leaves the
 * choice to the system property {@value #PROPERTY}, then the environment variable {@value #ENV}, then
 * {@code auto}: the available provider of highest priority (disni when its native library and a device
 * are present, else soft). The choice and its reason are logged.
 */
public final class Providers
{
    /** System property naming the provider. */
    public static final String PROPERTY = "ibex.provider";
    /** Environment variable naming the provider. */
    public static final String ENV = "IBEX_PROVIDER";
    /** The name that asks for automatic choice. */
    public static final String AUTO = "auto";

    private static final Logger LOG = LoggerFactory.getLogger(Providers.class);

    private Providers()
    {
    }

    /**
     * @return every provider on the class path, highest priority first.
     */
    public static List<RdmaProvider> all()
    {
        final List<RdmaProvider> providers = new ArrayList<>();
        ServiceLoader.load(RdmaProvider.class, Providers.class.getClassLoader()).forEach(providers::add);
        providers.sort(Comparator.comparingInt(RdmaProvider::priority).reversed());
        return providers;
    }

    /**
     * Chooses a provider from the system property, the environment, or automatically.
     *
     * @return the provider.
     * @throws IllegalArgumentException for an unknown name; IllegalStateException if the named provider is
     *                                  not available here (with its reason).
     */
    public static Provider select()
    {
        final String property = System.getProperty(PROPERTY);
        if (property != null && !property.isBlank())
        {
            return select(property, "system property " + PROPERTY);
        }
        final String env = System.getenv(ENV);
        if (env != null && !env.isBlank())
        {
            return select(env, "environment variable " + ENV);
        }
        return select(AUTO, "default");
    }

    /**
     * Chooses a provider by name.
     *
     * @param name {@code auto} or a provider name.
     * @return the provider.
     * @throws IllegalArgumentException for an unknown name; IllegalStateException if the named provider is
     *                                  not available here (with its reason).
     */
    public static Provider select(final String name)
    {
        return select(name, "caller");
    }

    private static RdmaProvider select(final String name, final String source)
    {
        final String wanted = name.trim().toLowerCase(Locale.ROOT);
        final List<RdmaProvider> providers = all();
        if (AUTO.equals(wanted))
        {
            final StringBuilder reasons = new StringBuilder();
            for (final RdmaProvider provider : providers)
            {
                final RdmaProvider.Availability availability = provider.availability();
                if (availability.available())
                {
                    LOG.info("RDMA provider '{}' chosen automatically ({}): {}{}", provider.name(), source,
                        availability.reason(), reasons);
                    return provider;
                }
                reasons.append("; '").append(provider.name()).append("' not available: ")
                    .append(availability.reason());
            }
            throw new IllegalStateException("no RDMA provider is available" + reasons);
        }
        for (final RdmaProvider provider : providers)
        {
            if (provider.name().equals(wanted))
            {
                final RdmaProvider.Availability availability = provider.availability();
                if (!availability.available())
                {
                    throw new IllegalStateException("RDMA provider '" + wanted + "' (from " + source +
                        ") is not available: " + availability.reason());
                }
                LOG.info("RDMA provider '{}' chosen by {}: {}", wanted, source, availability.reason());
                return provider;
            }
        }
        throw new IllegalArgumentException("unknown RDMA provider '" + name + "' (from " + source +
            "); known: auto, " + String.join(", ", providers.stream().map(RdmaProvider::name).toList()));
    }
}
