# The cp-bench AWS lab: 5 CP members and 1 client in one cluster placement group, as in the seed study; with
# client_count > 1, more client hosts, each running a load agent ('cpbench-lab load').
# Members get fixed private addresses, so each one's provisioning knows every member's address. Only the clients
# have public addresses: members are in a private subnet, reach Debian's mirrors through a NAT gateway, and are
# reached over SSH through the first client.

locals {
  az         = var.availability_zone != "" ? var.availability_zone : data.aws_availability_zones.available.names[0]
  ami        = var.ami_id != "" ? var.ami_id : data.aws_ami.debian12[0].id
  member_ips = [for i in range(var.member_count) : cidrhost(var.subnet_cidr, 11 + i)]
  # The first client keeps .10 (the one that runs the matrix, and the load's coordinator); others are .101 up.
  client_ips        = [for i in range(var.client_count) : cidrhost(var.client_subnet_cidr, i == 0 ? 10 : 100 + i)]
  member_addresses  = [for ip in local.member_ips : "${ip}:${var.hazelcast_port}"]
  lab_key_on_client = "/home/${var.ssh_user}/.ssh/cpbench-lab"
}

data "aws_availability_zones" "available" {
  state = "available"
}

# Debian's own account publishes the official images.
data "aws_ami" "debian12" {
  count       = var.ami_id == "" ? 1 : 0
  most_recent = true
  owners      = ["136693071363"]

  filter {
    name   = "name"
    values = ["debian-12-amd64-*"]
  }

  filter {
    name   = "architecture"
    values = ["x86_64"]
  }
}

resource "aws_vpc" "lab" {
  cidr_block           = var.vpc_cidr
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = { Name = var.lab_name }
}

resource "aws_internet_gateway" "lab" {
  vpc_id = aws_vpc.lab.id
  tags   = { Name = var.lab_name }
}

# The clients' subnet: public addresses, routed to the internet gateway. The NAT gateway is here too.
resource "aws_subnet" "clients" {
  vpc_id                  = aws_vpc.lab.id
  cidr_block              = var.client_subnet_cidr
  availability_zone       = local.az
  map_public_ip_on_launch = true

  tags = { Name = "${var.lab_name}-clients" }
}

resource "aws_route_table" "clients" {
  vpc_id = aws_vpc.lab.id

  route {
    cidr_block = "0.0.0.0/0"
    gateway_id = aws_internet_gateway.lab.id
  }

  tags = { Name = "${var.lab_name}-clients" }
}

resource "aws_route_table_association" "clients" {
  subnet_id      = aws_subnet.clients.id
  route_table_id = aws_route_table.clients.id
}

# The members' subnet: no public addresses; out to Debian's mirrors through the NAT gateway, nothing in.
resource "aws_subnet" "lab" {
  vpc_id                  = aws_vpc.lab.id
  cidr_block              = var.subnet_cidr
  availability_zone       = local.az
  map_public_ip_on_launch = false

  tags = { Name = var.lab_name }
}

resource "aws_eip" "nat" {
  domain = "vpc"
  tags   = { Name = "${var.lab_name}-nat" }
}

resource "aws_nat_gateway" "lab" {
  allocation_id = aws_eip.nat.id
  subnet_id     = aws_subnet.clients.id
  tags          = { Name = var.lab_name }

  depends_on = [aws_internet_gateway.lab]
}

resource "aws_route_table" "lab" {
  vpc_id = aws_vpc.lab.id

  route {
    cidr_block     = "0.0.0.0/0"
    nat_gateway_id = aws_nat_gateway.lab.id
  }

  tags = { Name = var.lab_name }
}

resource "aws_route_table_association" "lab" {
  subnet_id      = aws_subnet.lab.id
  route_table_id = aws_route_table.lab.id
}

# Hazelcast's port is open only between lab hosts; SSH between lab hosts (the client switches netem on the slow
# member over SSH, and the lab loop reaches members through it), and from your CIDR to the clients only. Outbound is
# open, for Debian's package mirrors.
resource "aws_security_group" "lab" {
  name        = var.lab_name
  description = "cp-bench lab: Hazelcast between lab hosts, SSH from the operator"
  vpc_id      = aws_vpc.lab.id

  tags = { Name = var.lab_name }
}

resource "aws_vpc_security_group_ingress_rule" "hazelcast_between_lab_hosts" {
  security_group_id            = aws_security_group.lab.id
  referenced_security_group_id = aws_security_group.lab.id
  ip_protocol                  = "tcp"
  from_port                    = var.hazelcast_port
  to_port                      = var.hazelcast_port
  description                  = "Hazelcast members and clients"
}

# The client hosts' own group: cp-bench's control cluster (load agents and their coordinator) is open between client
# hosts only, never to the members. Its members also check a shared secret (docs/agents.md).
resource "aws_security_group" "clients" {
  name        = "${var.lab_name}-clients"
  description = "cp-bench lab: the load agents' control cluster, between client hosts"
  vpc_id      = aws_vpc.lab.id

  tags = { Name = "${var.lab_name}-clients" }
}

resource "aws_vpc_security_group_ingress_rule" "control_between_client_hosts" {
  security_group_id            = aws_security_group.clients.id
  referenced_security_group_id = aws_security_group.clients.id
  ip_protocol                  = "tcp"
  from_port                    = 5801
  to_port                      = 5820
  description                  = "cp-bench's control cluster: load agents and their coordinator"
}

resource "aws_vpc_security_group_ingress_rule" "ssh_between_lab_hosts" {
  security_group_id            = aws_security_group.lab.id
  referenced_security_group_id = aws_security_group.lab.id
  ip_protocol                  = "tcp"
  from_port                    = 22
  to_port                      = 22
  description                  = "netem switching from the client"
}

resource "aws_vpc_security_group_ingress_rule" "ssh_from_operator" {
  security_group_id = aws_security_group.clients.id
  cidr_ipv4         = var.ssh_cidr
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  description       = "SSH from the operator, to the clients only"
}

resource "aws_vpc_security_group_egress_rule" "all_out" {
  security_group_id = aws_security_group.lab.id
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "-1"
  description       = "package mirrors"
}

# Low, steady latency between the hosts, as in the seed study.
resource "aws_placement_group" "lab" {
  name     = var.lab_name
  strategy = "cluster"
}

# The lab's own key: the client uses it to switch netem on the slow member and inject faults. It is kept in
# Terraform's state and reaches the client over SSH ('cpbench-lab' copies it there, mode 0600), never in user data:
# user data is readable by any process on the instance through the metadata service, and by anyone allowed to
# describe the instance.
resource "tls_private_key" "lab" {
  algorithm = "ED25519"
}

resource "aws_instance" "member" {
  count                       = var.member_count
  ami                         = local.ami
  instance_type               = var.instance_type
  key_name                    = var.key_name
  subnet_id                   = aws_subnet.lab.id
  associate_public_ip_address = false
  private_ip                  = local.member_ips[count.index]
  vpc_security_group_ids      = [aws_security_group.lab.id]
  placement_group             = aws_placement_group.lab.id

  user_data = templatefile("${path.module}/templates/member-init.sh.tftpl", {
    ssh_user       = var.ssh_user
    member_name    = "member-${count.index}"
    lab_public_key = tls_private_key.lab.public_key_openssh
    run_member     = file("${path.module}/files/run-member.sh")
    slow           = count.index == var.slow_member
    delay_ms       = var.slow_delay_ms
  })
  user_data_replace_on_change = true

  # IMDSv2 only (a session token, got by a PUT, which a forwarded or SSRF'd GET cannot do), and no further than the
  # instance itself (hop limit 1: a container on it cannot reach the metadata service).
  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_size = 16
    volume_type = "gp3"
  }

  tags = {
    Name     = "${var.lab_name}-member-${count.index}"
    Role     = "member"
    Priority = count.index == var.priority_member ? "true" : "false"
    Slow     = count.index == var.slow_member ? "true" : "false"
  }

  lifecycle {
    precondition {
      condition     = var.priority_member >= 0 && var.priority_member < var.member_count
      error_message = "priority_member must be a member index."
    }
    precondition {
      condition     = var.slow_member >= 0 && var.slow_member < var.member_count && var.slow_member != var.priority_member
      error_message = "slow_member must be a member index other than priority_member."
    }
  }
}

resource "aws_instance" "client" {
  count                       = var.client_count
  ami                         = local.ami
  instance_type               = var.client_instance_type
  key_name                    = var.key_name
  subnet_id                   = aws_subnet.clients.id
  associate_public_ip_address = true
  private_ip                  = local.client_ips[count.index]
  vpc_security_group_ids      = [aws_security_group.lab.id, aws_security_group.clients.id]
  placement_group             = aws_placement_group.lab.id

  user_data = templatefile("${path.module}/templates/client-init.sh.tftpl", {
    ssh_user = var.ssh_user
  })
  user_data_replace_on_change = true

  # IMDSv2 only (a session token, got by a PUT, which a forwarded or SSRF'd GET cannot do), and no further than the
  # instance itself (hop limit 1: a container on it cannot reach the metadata service).
  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_size = 16
    volume_type = "gp3"
  }

  tags = {
    Name = "${var.lab_name}-client-${count.index}"
    Role = "client"
  }
}
