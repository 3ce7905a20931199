package io.ibex.samples.runner.node;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Path;

/**
 * What every node may need from the runner; tests pass clocks they control.
 *
 * @param baseDirectory where relative file names in the config are resolved: the working directory, as VILLAS.
 * @param clock         the epoch clock that stamps samples (ts.origin at a signal generator).
 * @param pacingClock   the monotonic clock that paces nodes with a rate.
 */
public record NodeContext(Path baseDirectory, EpochNanoClock clock, NanoClock pacingClock)
{
}
