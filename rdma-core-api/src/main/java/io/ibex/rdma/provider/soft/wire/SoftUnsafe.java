package io.ibex.rdma.provider.soft.wire;

import sun.misc.Unsafe;

import java.lang.reflect.Field;

/**
 * The soft provider's one handle on {@code sun.misc.Unsafe}, for the rings and copies it does on raw addresses.
 * It is its own rather than Agrona's {@code UnsafeAccess}, which Agrona 2 removed, so the provider runs on Agrona
 * 1.x and 2.x alike. {@code sun.misc.Unsafe} sits in the {@code jdk.unsupported} module, open without flags.
 */
public final class SoftUnsafe
{
    /** The JVM's single instance. */
    public static final Unsafe UNSAFE = unsafe();

    private SoftUnsafe()
    {
    }

    private static Unsafe unsafe()
    {
        try
        {
            final Field field = Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return (Unsafe)field.get(null);
        }
        catch (final ReflectiveOperationException | RuntimeException ex)
        {
            throw new ExceptionInInitializerError(new IllegalStateException(
                "the soft provider needs sun.misc.Unsafe (module jdk.unsupported) and could not get it: " + ex, ex));
        }
    }
}
