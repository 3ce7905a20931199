package io.ibex.samples.runner.node;

import io.ibex.transport.config.internal.ConfigValue;

/**
 * A node as its factory built it, and the hooks its settings list, as written: the runner binds those.
 *
 * @param node     the node, not yet started.
 * @param inHooks  {@code in.hooks} (run on every sample the node reads), or null.
 * @param outHooks {@code out.hooks} (run on every sample before the node writes it), or null.
 */
public record ConfiguredNode(Node node, ConfigValue inHooks, ConfigValue outHooks)
{
}
