package io.cpbench.core.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Records a run's ops as a history. Each worker thread owns one {@link Lane}, so recording takes no shared lock;
 * {@link #events()} merges the lanes by time once the run is over.
 *
 * <p>Processes follow Jepsen: lane {@code i} starts as process {@code i}; after an op whose outcome is unknown
 * ({@code info}) the lane goes on as process {@code i + lanes}, then {@code i + 2 * lanes}, ..., so that an
 * unknown op stays open to the end of the history and no process ever has two ops in flight. Process -1 is the
 * run's setup (the registers' initial writes).
 */
public final class HistoryRecorder {

    /** What an op whose outcome is unknown at the end (still in flight when the run stopped) is marked with. */
    public static final String ABANDONED = "abandoned: still in flight when the run ended";

    private final long origin = System.nanoTime();
    private final Lane[] lanes;
    private final Lane setup;

    public HistoryRecorder(int lanes) {
        this.lanes = new Lane[lanes];
        for (int i = 0; i < lanes; i++) {
            this.lanes[i] = new Lane(i, lanes);
        }
        this.setup = new Lane(-1, 0);
    }

    public Lane lane(int index) {
        return lanes[index];
    }

    /** The lane of the run's own setup writes (process -1). */
    public Lane setup() {
        return setup;
    }

    /** Nanoseconds since the recorder was made: the history's clock. */
    public long now() {
        return System.nanoTime() - origin;
    }

    /** {@code nanos} ({@link System#nanoTime()}) on the history's clock. */
    public long at(long nanos) {
        return nanos - origin;
    }

    /**
     * Every event so far, by time; an op still open gets an {@code info} completion ({@link #ABANDONED}) after the
     * last event. Lanes are closed: an op that ends later is not recorded.
     */
    public List<Event> events() {
        List<Event> all = new ArrayList<>();
        List<Event> open = new ArrayList<>();
        for (Lane lane : allLanes()) {
            lane.drainTo(all, open);
        }
        all.sort(Comparator.comparingLong(Event::time));
        long end = all.isEmpty() ? now() : Math.max(now(), all.get(all.size() - 1).time() + 1);
        for (Event invoke : open) {
            all.add(new Event(invoke.process(), Event.Type.INFO, invoke.f(), invoke.key(), invoke.value(), end, ABANDONED));
        }
        return all;
    }

    private List<Lane> allLanes() {
        List<Lane> all = new ArrayList<>(List.of(lanes));
        all.add(0, setup);
        return all;
    }

    /** One worker's ops, in order. Used by its worker thread alone, until {@link #events()} closes it. */
    public final class Lane {
        private final int stride;
        private long process;
        private Event open;
        private boolean closed;
        private final ArrayList<Event> events = new ArrayList<>();

        private Lane(long process, int stride) {
            this.process = process;
            this.stride = stride;
        }

        /** Records the invocation of an op, now. */
        public void invoke(String f, String key, Object value) {
            invoke(f, key, value, System.nanoTime());
        }

        /** Records the invocation of an op at {@code nanos} ({@link System#nanoTime()}, as the caller took it). */
        public synchronized void invoke(String f, String key, Object value, long nanos) {
            if (!closed) {
                open = Event.invoke(process, f, key, value, at(nanos));
                events.add(open);
            }
        }

        /** Records the open op's completion, now: ok (value: what it returned), fail or info. */
        public void complete(Event.Type type, Object value, String error) {
            complete(type, value, error, System.nanoTime());
        }

        /** Records the open op's completion at {@code nanos} ({@link System#nanoTime()}). */
        public synchronized void complete(Event.Type type, Object value, String error, long nanos) {
            if (closed || open == null) {
                return;
            }
            events.add(new Event(process, type, open.f(), open.key(), value, at(nanos), error));
            open = null;
            if (type == Event.Type.INFO && stride > 0) {
                process += stride;
            }
        }

        /** Records the open op's completion at {@code nanos}, with its own value (a write's, a failed cas's). */
        public synchronized void completeWithOwnValue(Event.Type type, String error, long nanos) {
            if (open != null) {
                complete(type, open.value(), error, nanos);
            }
        }

        private synchronized void drainTo(List<Event> all, List<Event> stillOpen) {
            all.addAll(events);
            if (open != null) {
                stillOpen.add(open);
            }
            closed = true;
        }
    }
}
