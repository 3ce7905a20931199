/**
 * The config tree, its readers (libconfig, JSON) and binders, for the runner: exported to {@code io.ibex.samples}
 * only, and not API.
 */
package io.ibex.transport.config.internal;
