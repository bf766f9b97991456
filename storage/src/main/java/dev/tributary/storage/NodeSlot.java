package dev.tributary.storage;

/** Where an {@link IdGenerator} gets its node id: fixed by configuration, or a lease in id_nodes. */
interface NodeSlot {

    /** The node id to put in the next id; throws {@link IdGenerationException} if none is held now. */
    int nodeId();

    static NodeSlot fixed(int nodeId) {
        if (nodeId < 0 || nodeId > IdGenerator.MAX_NODE) {
            throw new IllegalArgumentException("node id must be 0.." + IdGenerator.MAX_NODE + ", not " + nodeId);
        }
        return () -> nodeId;
    }
}
