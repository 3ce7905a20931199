package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24, finding 3: memory keys are not guessable from each other. A key is its region's index above 12 random
 * bits: the index is recoverable (the device finds the region), the rest cannot be told from other keys, not even
 * from a key the same index had before.
 */
class SoftMemoryKeyTest
{
    private static final int REGIONS = 512;
    private static final int RANDOM_BITS = 12;
    private static final int RANDOM_MASK = (1 << RANDOM_BITS) - 1;

    private final SoftFixture fixture = new SoftFixture();
    private final SoftDevice device = (SoftDevice)fixture.context.device();
    private final ByteBuffer memory = ByteBuffer.allocateDirect(4096);

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void keysOfManyRegionsAreTheirIndexAboveRandomBits()
    {
        final List<MemoryRegion> regions = new ArrayList<>();
        final Set<Integer> indexes = new HashSet<>();
        final Set<Integer> randoms = new HashSet<>();
        int sequential = 0;
        int previous = -1;
        for (int i = 0; i < REGIONS; i++)
        {
            final MemoryRegion mr = register();
            regions.add(mr);
            final int key = mr.rkey();
            assertEquals(key, mr.lkey());
            assertSame(mr, device.region(key), "the index in the key finds the region");
            assertTrue(indexes.add(key >>> RANDOM_BITS), "two open regions with one index");
            randoms.add(key & RANDOM_MASK);
            // the scheme before: (index << 8) | generation, the generation one more at every registration
            if (previous >= 0 && ((key & 0xff) == ((previous + 1) & 0xff) || (key & RANDOM_MASK) ==
                ((previous + 1) & RANDOM_MASK)))
            {
                sequential++;
            }
            previous = key;
        }
        assertTrue(sequential < REGIONS / 16, sequential + " of " + REGIONS + " keys follow from the one before");
        assertTrue(randoms.size() > REGIONS / 2, "only " + randoms.size() + " distinct low bits in " + REGIONS);
        regions.forEach(MemoryRegion::close);
    }

    @Test
    void aKeyWithTheRightIndexAndWrongRandomBitsFindsNothing()
    {
        final MemoryRegion mr = register();
        for (int bit = 0; bit < RANDOM_BITS; bit++)
        {
            assertNull(device.region(mr.rkey() ^ (1 << bit)), "bit " + bit + " flipped");
        }
        assertNull(device.region(mr.rkey() & ~RANDOM_MASK), "the index alone");
        mr.close();
        assertNull(device.region(mr.rkey()), "a closed region's key");
    }

    /**
     * Regions registered one after another reuse indexes once the key table wraps: a new region at an index seldom
     * gets the key a region there had before (one chance in 4096), and never a key a guess from it would give.
     */
    @Test
    void regionsAtTheSameIndexGetDifferentKeys()
    {
        final Map<Integer, Integer> lastKeyAt = new HashMap<>();
        int reused = 0;
        int sameKey = 0;
        for (int i = 0; i < 4 * REGIONS; i++)
        {
            final MemoryRegion mr = register();
            final Integer before = lastKeyAt.put(mr.rkey() >>> RANDOM_BITS, mr.rkey());
            if (before != null)
            {
                reused++;
                sameKey += before == mr.rkey() ? 1 : 0;
            }
            mr.close();
        }
        assertTrue(reused > REGIONS, "indexes reused " + reused + " times");
        assertTrue(sameKey <= 5, sameKey + " of " + reused + " reused indexes got the key they had");
    }

    @Test
    void theDeviceReportsTheRegionsItsKeysCanName()
    {
        assertEquals((1 << 20) - 1, fixture.context.queryDevice().maxMr());
        assertEquals(SoftDevice.MAX_MR, fixture.context.queryDevice().maxMr());
    }

    private MemoryRegion register()
    {
        return fixture.pd.registerMemory(memory, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
    }
}
