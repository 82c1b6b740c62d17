package io.cpbench.bench.agents;

import com.hazelcast.core.MemberLeftException;
import com.hazelcast.internal.serialization.SerializationClassNameFilter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a control member takes from Java serialization: Hazelcast's own filter (the one its members apply) with
 * cp-bench's allow-list, and the JDK's limits on a stream, each on real serialized bytes.
 */
class ControlDeserializationTest {

    private final SerializationClassNameFilter classes = new SerializationClassNameFilter(ControlCluster.allowList());

    @Test
    void theTasksAndTheExceptionsThatComeBackAreAdmitted() {
        for (String name : List.of(AgentTask.class.getName(), ClockTask.class.getName(), AdmitTask.class.getName(),
                ControlTask.class.getName(), "java.lang.IllegalStateException",
                "java.lang.StackTraceElement", "[Ljava.lang.StackTraceElement;", "java.util.Collections$EmptyList",
                "java.util.concurrent.ExecutionException", MemberLeftException.class.getName(),
                "com.hazelcast.spi.exception.TargetNotMemberException")) {
            assertThatCode(() -> classes.filter(name)).as(name).doesNotThrowAnyException();
        }
    }

    /** Serializable classes that java.lang.* or java.util.concurrent.* would have let in, and others. */
    @Test
    void everythingElseIsRefusedByName() {
        for (String name : List.of("java.util.HashMap", "java.util.concurrent.ConcurrentHashMap",
                "java.util.concurrent.ConcurrentSkipListMap", "java.util.concurrent.CopyOnWriteArrayList",
                "java.lang.Long", "java.lang.Boolean", "java.lang.StringBuilder", "java.lang.Enum",
                "java.lang.reflect.Proxy", "java.lang.invoke.SerializedLambda", "javax.management.BadAttributeValueExpException",
                "java.util.PriorityQueue", "[Ljava.lang.Object;", "org.apache.commons.collections.functors.InvokerTransformer",
                "com.hazelcast.map.impl.MapEntries", "javax.swing.JPanel")) {
            assertThatThrownBy(() -> classes.filter(name)).as(name).isInstanceOf(SecurityException.class);
        }
    }

    @Test
    void theLimitsStopALargeOrDeepStreamAndLetAnExceptionWithItsCausesThrough() throws Exception {
        assertThatThrownBy(() -> read(new long[200_000])).isInstanceOf(InvalidClassException.class)
                .hasMessageContaining("REJECTED");
        Nested deep = new Nested(null);
        for (int i = 0; i < 100; i++) {
            deep = new Nested(deep);
        }
        Nested tooDeep = deep;
        assertThatThrownBy(() -> read(tooDeep)).isInstanceOf(InvalidClassException.class).hasMessageContaining("REJECTED");
        List<Object> many = new ArrayList<>();
        for (int i = 0; i < 60_000; i++) {
            many.add(new Nested(null));
        }
        assertThatThrownBy(() -> read(many)).isInstanceOf(InvalidClassException.class).hasMessageContaining("REJECTED");

        ExecutionException failure = new ExecutionException(new IllegalStateException("the agent's engine failed",
                new com.hazelcast.core.OperationTimeoutException("no answer from member-1")));
        Throwable back = (Throwable) read(failure);
        assertThat(back).isInstanceOf(ExecutionException.class).hasRootCauseInstanceOf(com.hazelcast.core.OperationTimeoutException.class);
    }

    @Test
    void theLimitsAreThisProcesssOnceAControlMemberCouldStart() {
        ControlCluster.limitJavaDeserialization();
        assertThat(java.io.ObjectInputFilter.Config.getSerialFilter()).isNotNull();
        if (System.getProperty("jdk.serialFilter") == null) {
            assertThat(java.io.ObjectInputFilter.Config.getSerialFilter()).isSameAs(ControlCluster.LIMITS_FILTER);
        }
    }

    private static Object read(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            in.setObjectInputFilter(ControlCluster.LIMITS_FILTER);
            return in.readObject();
        }
    }

    private record Nested(Nested inner) implements Serializable {
    }
}
