package io.cpbench.bench.agents;

import io.cpbench.core.history.Event;
import io.cpbench.core.load.LoadParts;
import io.cpbench.core.load.LoadResult;

import java.util.List;

/**
 * What an agent sends back for its part of a load (as JSON): its own result and its numbers in a form that adds up,
 * or why it could not run.
 *
 * @param host    where it ran
 * @param error   why it did not run its part; null when it did
 * @param history when the job asked for it, every op as a history, on the agent's own history clock; else null
 */
record AgentReport(String agent, String host, LoadResult result, LoadParts parts, String error, History history) {

    AgentReport(String agent, String host, String error) {
        this(agent, host, null, null, error, null);
    }

    /**
     * An agent's history as it travels.
     *
     * @param originMicros when its history clock read 0, in microseconds since the epoch on the agent's clock
     */
    record History(long originMicros, List<Line> events) {

        /** Its events on a clock that began at {@code originMicros} on the coordinator's own clock, their processes mapped. */
        List<Event> events(long coordinatorOriginMicros, double offsetMs, java.util.function.LongUnaryOperator process) {
            long shift = Math.round((originMicros - offsetMs * 1000 - coordinatorOriginMicros) * 1000);
            return events.stream().map(l -> l.event(shift, process)).toList();
        }
    }

    /** One event, its value split by kind so that it reads back as the longs it was. */
    record Line(long process, String type, String f, String key, Long value, List<Long> pair, long time, String error) {

        static Line of(Event e) {
            return new Line(e.process(), e.type().key(), e.f(), e.key(), e.value() instanceof Long l ? l : null,
                    e.value() instanceof List<?> ? e.pair() : null, e.time(), e.error());
        }

        Event event(long shift, java.util.function.LongUnaryOperator mapProcess) {
            return new Event(mapProcess.applyAsLong(process), Event.Type.of(type), f, key, pair != null ? pair : value,
                    time + shift, error);
        }
    }
}
