output "member_private_ips" {
  description = "Members' private addresses, member-0 first."
  value       = aws_instance.member[*].private_ip
}

output "member_instance_ids" {
  description = "Members' instance IDs, member-0 first: the lab loop pins each host's SSH keys from its console output."
  value       = aws_instance.member[*].id
}

output "client_instance_ids" {
  description = "Clients' instance IDs, client-0 first (as member_instance_ids)."
  value       = aws_instance.client[*].id
}

output "region" {
  description = "The lab's region, for 'aws ec2 get-console-output'."
  value       = var.region
}

output "priority_member" {
  description = "Index of the member with leadership priority."
  value       = var.priority_member
}

output "slow_member" {
  description = "Index of the member network (b) slows down."
  value       = var.slow_member
}

output "client_public_ip" {
  description = "The first client's public address: the lab loop runs the matrix, and a load's coordinator, there."
  value       = aws_instance.client[0].public_ip
}

output "client_public_ips" {
  description = "Every client's public address, client-0 first: 'cpbench-lab load' starts a load agent on each."
  value       = aws_instance.client[*].public_ip
}

output "client_private_ips" {
  description = "Every client's private address, client-0 first: where the agents meet in their control cluster."
  value       = aws_instance.client[*].private_ip
}

output "ssh_user" {
  description = "Login user on every lab host."
  value       = var.ssh_user
}

# What the remote topology reads on the client (cp-bench's inventory format, see Inventory's Javadoc), and what
# 'cpbench lab member-commands' turns into each member's command line.
output "inventory" {
  description = "cp-bench inventory for --topology remote --inventory."
  value = {
    format                 = "cpbench-inventory/1"
    clusterName            = var.cluster_name
    rebalancePeriodSeconds = var.rebalance_period_seconds
    memberJvmOptions       = var.member_jvm_options
    members = [for i, ip in local.member_ips : {
      host     = ip
      port     = var.hazelcast_port
      priority = i == var.priority_member
      slow     = i == var.slow_member
      sshHost  = ip
    }]
    clients = [for i, ip in local.client_ips : {
      host = ip
      name = "client-${i}"
    }]
    ssh = {
      user           = var.ssh_user
      identityFile   = local.lab_key_on_client
      netemCommand   = "sudo /usr/local/bin/cpbench-netem"
      faultCommand   = "sudo /usr/local/bin/cpbench-fault"
      knownHostsFile = "/home/${var.ssh_user}/.ssh/cpbench-lab.known_hosts"
    }
  }
}

# For 'cpbench-lab', which copies it to the client over SSH (not in user data: see main.tf). Terraform prints it only
# when asked by name (terraform output -raw lab_private_key) or in 'output -json'.
output "lab_private_key" {
  description = "The lab's own private key (the client's key to the members)."
  value       = tls_private_key.lab.private_key_openssh
  sensitive   = true
}
