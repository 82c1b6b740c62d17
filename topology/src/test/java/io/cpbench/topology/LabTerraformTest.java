package io.cpbench.topology;

import com.bertramlabs.plugins.hcl4j.HCLParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AWS lab's Terraform parses (hcl4j) and has the shape the lab promises: the seed's instance types and counts, a
 * cluster placement group, Hazelcast's port open only between lab hosts, and netem only on the slow member. What
 * AWS would do with it is not checked here (no provider can be downloaded on this machine); what Terraform itself reads
 * (formatting, the rendered user data) is checked by {@link LabTerraformRenderTest}.
 */
class LabTerraformTest {

    static final Path TF = Path.of("..", "infra", "terraform");
    static Map<String, Object> main;
    static Map<String, Object> variables;
    static Map<String, Object> outputs;

    @BeforeAll
    static void parse() throws Exception {
        main = parse("main.tf");
        variables = parse("variables.tf");
        outputs = parse("outputs.tf");
        parse("versions.tf");
    }

    static Map<String, Object> parse(String file) throws Exception {
        return new HCLParser().parse(TF.resolve(file).toFile(), "UTF-8");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> at(Map<String, Object> root, String... path) {
        Map<String, Object> node = root;
        for (String key : path) {
            assertThat(node).as(String.join(".", path)).containsKey(key);
            node = (Map<String, Object>) node.get(key);
        }
        return node;
    }

    @Test
    void defaultsAreTheSeedStudysMachines() throws Exception {
        assertThat(at(variables, "variable", "instance_type").get("default")).isEqualTo("c5.4xlarge");
        assertThat(at(variables, "variable", "client_instance_type").get("default")).isEqualTo("c5.4xlarge");
        assertThat(at(variables, "variable", "member_count").get("default")).isEqualTo(5.0);
        assertThat(at(variables, "variable", "client_count").get("default")).isEqualTo(1.0);
        // hcl4j evaluates a condition it can: the text says what Terraform checks
        assertThat(Files.readString(TF.resolve("variables.tf"))).contains("var.client_count >= 1 && var.client_count <= 16");
        assertThat(at(variables, "variable", "slow_delay_ms").get("default")).isEqualTo(10.0);
        assertThat(at(variables, "variable", "region").get("default")).isEqualTo("us-east-1");
        assertThat(at(variables, "variable", "priority_member").get("default"))
                .isNotEqualTo(at(variables, "variable", "slow_member").get("default"));
        // Variables that must be the user's own have no default.
        assertThat(at(variables, "variable", "key_name")).doesNotContainKey("default");
        assertThat(at(variables, "variable", "ssh_cidr")).doesNotContainKey("default");
    }

    @Test
    void membersAndClientsInAClusterPlacementGroup() throws Exception {
        assertThat(at(main, "resource", "aws_placement_group", "lab").get("strategy")).isEqualTo("cluster");
        Map<String, Object> member = at(main, "resource", "aws_instance", "member");
        Map<String, Object> client = at(main, "resource", "aws_instance", "client");
        assertThat(String.valueOf(member.get("count"))).isEqualTo("var.member_count");
        assertThat(String.valueOf(member.get("instance_type"))).isEqualTo("var.instance_type");
        assertThat(String.valueOf(client.get("count"))).isEqualTo("var.client_count");
        // each client its own fixed address: the first .10, the others .101 up
        assertThat(Files.readString(TF.resolve("main.tf"))).contains("private_ip                  = local.client_ips[count.index]",
                "client_ips        = [for i in range(var.client_count) : cidrhost(var.client_subnet_cidr, i == 0 ? 10 : 100 + i)]");
        assertThat(String.valueOf(client.get("instance_type"))).isEqualTo("var.client_instance_type");
        for (Map<String, Object> instance : List.of(member, client)) {
            assertThat(String.valueOf(instance.get("placement_group"))).isEqualTo("aws_placement_group.lab.id");
        }
        // the control cluster's group is the clients' alone: a member host cannot reach an agent's control port
        assertThat(String.valueOf(member.get("vpc_security_group_ids"))).isEqualTo("[aws_security_group.lab.id]");
        assertThat(String.valueOf(client.get("vpc_security_group_ids")))
                .isEqualTo("[aws_security_group.lab.id, aws_security_group.clients.id]");
        assertThat(at(main, "resource")).containsKeys("aws_vpc", "aws_subnet", "aws_internet_gateway", "aws_security_group");
    }

    /**
     * Public addresses only where needed: members in a private subnet (no public address, out through a NAT gateway
     * for Debian's mirrors), clients in a public one; SSH from the operator's CIDR reaches the clients' group only.
     */
    @Test
    void membersHaveNoPublicAddressAndAreReachedThroughTheClients() {
        Map<String, Object> member = at(main, "resource", "aws_instance", "member");
        Map<String, Object> client = at(main, "resource", "aws_instance", "client");
        assertThat(member.get("associate_public_ip_address")).isEqualTo(false);
        assertThat(String.valueOf(member.get("subnet_id"))).isEqualTo("aws_subnet.lab.id");
        assertThat(client.get("associate_public_ip_address")).isEqualTo(true);
        assertThat(String.valueOf(client.get("subnet_id"))).isEqualTo("aws_subnet.clients.id");
        assertThat(at(main, "resource", "aws_subnet", "lab").get("map_public_ip_on_launch")).isEqualTo(false);
        assertThat(at(main, "resource", "aws_subnet", "clients").get("map_public_ip_on_launch")).isEqualTo(true);
        // the members' default route is the NAT gateway, which sits in the clients' subnet
        Map<String, Object> memberRoute = at(main, "resource", "aws_route_table", "lab", "route");
        assertThat(String.valueOf(memberRoute.get("nat_gateway_id"))).isEqualTo("aws_nat_gateway.lab.id");
        assertThat(memberRoute).doesNotContainKey("gateway_id");
        assertThat(String.valueOf(at(main, "resource", "aws_nat_gateway", "lab").get("subnet_id"))).isEqualTo("aws_subnet.clients.id");
        assertThat(String.valueOf(at(main, "resource", "aws_route_table_association", "lab").get("route_table_id")))
                .isEqualTo("aws_route_table.lab.id");
        Map<String, Object> operator = at(main, "resource", "aws_vpc_security_group_ingress_rule", "ssh_from_operator");
        assertThat(String.valueOf(operator.get("security_group_id"))).isEqualTo("aws_security_group.clients.id");
        // what the lab loop reads to pin host keys and reach the members
        assertThat(at(outputs, "output")).containsKeys("member_instance_ids", "client_instance_ids", "region")
                .doesNotContainKey("member_public_ips");
        assertThat(String.valueOf(at(outputs, "output", "inventory", "value", "ssh").get("knownHostsFile")))
                .startsWith("/home/").endsWith("/.ssh/cpbench-lab.known_hosts");
    }

    @Test
    void hazelcastIsOpenOnlyBetweenLabHostsAndSshOnlyFromTheOperatorsCidr() {
        Map<String, Object> ingress = at(main, "resource", "aws_vpc_security_group_ingress_rule");
        int hazelcastRules = 0;
        int controlRules = 0;
        for (Object value : ingress.values()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> rule = (Map<String, Object>) value;
            if (Double.valueOf(5801).equals(rule.get("from_port"))) {
                // the load agents' control cluster (ports from 5801, 20 tried), between client hosts only
                assertThat(rule.get("to_port")).isEqualTo(5820.0);
                assertThat(String.valueOf(rule.get("security_group_id"))).isEqualTo("aws_security_group.clients.id");
                assertThat(String.valueOf(rule.get("referenced_security_group_id"))).isEqualTo("aws_security_group.clients.id");
                assertThat(rule).doesNotContainKeys("cidr_ipv4", "cidr_ipv6");
                controlRules++;
            } else if ("var.hazelcast_port".equals(String.valueOf(rule.get("from_port")))) {
                hazelcastRules++;
                assertThat(String.valueOf(rule.get("to_port"))).isEqualTo("var.hazelcast_port");
                assertThat(String.valueOf(rule.get("referenced_security_group_id"))).isEqualTo("aws_security_group.lab.id");
                assertThat(rule).doesNotContainKeys("cidr_ipv4", "cidr_ipv6");
            } else {
                assertThat(rule.get("from_port")).as(rule.toString()).isEqualTo(22.0);
                assertThat(rule.get("to_port")).isEqualTo(22.0);
                assertThat(rule.containsKey("referenced_security_group_id") || "var.ssh_cidr".equals(String.valueOf(rule.get("cidr_ipv4"))))
                        .as(rule.toString()).isTrue();
            }
        }
        assertThat(hazelcastRules).isEqualTo(1);
        assertThat(controlRules).isEqualTo(1);
        assertThat(at(variables, "variable", "hazelcast_port").get("default")).isEqualTo(5701.0);
    }

    /**
     * What reaches an instance's metadata service and its user data: IMDSv2 only, hop limit 1, on every instance; no
     * private key in any user data (the lab's key is a sensitive output the lab loop copies over SSH); SSH open to no
     * prefix shorter than /8.
     */
    @Test
    void noKeyInUserDataImdsV2OnlyAndSshFromANarrowCidr() throws Exception {
        for (String name : List.of("member", "client")) {
            Map<String, Object> metadata = at(main, "resource", "aws_instance", name, "metadata_options");
            assertThat(metadata.get("http_tokens")).as(name).isEqualTo("required");
            assertThat(metadata.get("http_put_response_hop_limit")).as(name).isEqualTo(1.0);
        }
        String mainText = Files.readString(TF.resolve("main.tf"));
        for (String template : List.of("member-init.sh.tftpl", "client-init.sh.tftpl")) {
            String text = Files.readString(TF.resolve("templates").resolve(template));
            assertThat(text).as(template).doesNotContainIgnoringCase("private_key").doesNotContain("BEGIN OPENSSH");
        }
        // the templatefile() arguments: nothing of tls_private_key but its public half
        assertThat(mainText.lines().filter(l -> l.contains("tls_private_key.lab.")))
                .allSatisfy(l -> assertThat(l).contains("public_key_openssh"));
        Map<String, Object> key = at(outputs, "output", "lab_private_key");
        assertThat(key.get("sensitive")).isEqualTo(true);
        assertThat(String.valueOf(key.get("value"))).isEqualTo("tls_private_key.lab.private_key_openssh");
        // hcl4j does not evaluate the condition: the text says what Terraform checks (LabTerraformTest cannot run
        // Terraform's functions; 'terraform console' evaluated it: 0.0.0.0/1 and 10.0.0.0/7 false, 10.0.0.0/8 true)
        assertThat(Files.readString(TF.resolve("variables.tf")))
                .contains("try(tonumber(split(\"/\", var.ssh_cidr)[1]) >= 8, false)");
    }

    @Test
    void netemIsOnTheSlowMemberOnly() throws Exception {
        String mainText = Files.readString(TF.resolve("main.tf"));
        assertThat(mainText).contains("slow           = count.index == var.slow_member");
        String template = Files.readString(TF.resolve("templates/member-init.sh.tftpl"));

        String slow = render(template, true);
        String normal = render(template, false);

        assertThat(slow).contains("tc qdisc replace dev \"$dev\" root netem delay \"${2:-10ms}\"", "modprobe sch_netem");
        assertThat(normal).doesNotContain("cpbench-netem");
        assertThat(Files.readString(TF.resolve("templates/client-init.sh.tftpl"))).doesNotContain("netem");
        // Both start the member the same way: the command cp-bench wrote, through run-member.
        for (String script : List.of(slow, normal)) {
            assertThat(script).contains("openjdk-17-jre-headless", "ExecStart=/opt/cpbench/run-member /opt/cpbench/member.argv");
        }
    }

    @Test
    void outputsAreWhatTheRemoteTopologyAndTheLabLoopRead() {
        Map<String, Object> output = at(outputs, "output");
        assertThat(output).containsKeys("member_private_ips", "member_instance_ids", "priority_member", "slow_member",
                "client_public_ip", "client_public_ips", "client_private_ips", "ssh_user", "inventory");
        Map<String, Object> inventory = at(outputs, "output", "inventory", "value");
        assertThat(inventory.get("format")).isEqualTo(Inventory.FORMAT);
        assertThat(inventory).containsKeys("clusterName", "members", "ssh", "memberJvmOptions", "rebalancePeriodSeconds",
                "clients");
        assertThat(at(outputs, "output", "inventory", "value", "ssh").get("netemCommand"))
                .isEqualTo("sudo /usr/local/bin/cpbench-netem");
        assertThat(at(outputs, "output", "inventory", "value", "ssh").get("faultCommand"))
                .isEqualTo(Inventory.Ssh.LAB_FAULT_COMMAND);
        String outputsText;
        try {
            outputsText = Files.readString(TF.resolve("outputs.tf"));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertThat(outputsText).contains("priority = i == var.priority_member", "slow     = i == var.slow_member",
                "clients = [for i, ip in local.client_ips", "name = \"client-${i}\"");
    }

    @Test
    void everyMemberGetsTheFaultScriptAndMaySudoOnlyIt() throws Exception {
        String template = Files.readString(TF.resolve("templates/member-init.sh.tftpl"));
        for (boolean slow : new boolean[]{true, false}) {
            String script = render(template, slow);
            assertThat(LabFaultScript.extract(script)).startsWith("#!/bin/bash").contains("iptables -N CPBENCH-IN");
            assertThat(script).contains("admin ALL=(root) NOPASSWD: /usr/local/bin/cpbench-fault", "apt-get install -y -q iptables");
        }
    }

    /**
     * The member template as Terraform renders it for one member: {@code ${var}} substituted, {@code $${} and
     * {@code %{ if slow ~}...%{ endif ~}} handled. Just the subset the template uses, for machines without Terraform;
     * {@link LabTerraformRenderTest} checks it equal to Terraform's own rendering.
     */
    static String render(String template, boolean slow) {
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("ssh_user", "admin");
        vars.put("member_name", "member-4");
        vars.put("lab_public_key", "ssh-ed25519 AAAA lab");
        vars.put("run_member", "#!/usr/bin/env bash");
        vars.put("delay_ms", "10");
        String text = template.replaceAll("(?s)%\\{ if slow ~}\\n(.*?)%\\{ endif ~}\\n?", slow ? "$1" : "");
        assertThat(text).doesNotContain("%{");
        Matcher m = Pattern.compile("(\\$?)\\$\\{([a-z_]+)}").matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = m.group(1).isEmpty() ? vars.get(m.group(2)) : "${" + m.group(2) + "}";
            assertThat(replacement).as("template variable " + m.group(2)).isNotNull();
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString().replace("$${", "${");
    }
}
