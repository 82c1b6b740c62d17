variable "region" {
  description = "AWS region of the lab."
  type        = string
  default     = "us-east-1"
}

variable "availability_zone" {
  description = "Availability zone for the subnet and the placement group; empty picks the region's first."
  type        = string
  default     = ""
}

variable "lab_name" {
  description = "Prefix for the names of everything the lab creates."
  type        = string
  default     = "cpbench-lab"
}

variable "instance_type" {
  description = "Instance type of the CP members (the seed study's: c5.4xlarge)."
  type        = string
  default     = "c5.4xlarge"
}

variable "client_instance_type" {
  description = "Instance type of the client that runs the matrix (the seed study's: c5.4xlarge)."
  type        = string
  default     = "c5.4xlarge"
}

variable "member_count" {
  description = "CP members (the seed study's group: 5)."
  type        = number
  default     = 5

  validation {
    condition     = var.member_count >= 3 && var.member_count <= 9
    error_message = "A CP group needs 3-9 members."
  }
}

variable "client_count" {
  description = "Client hosts: the first runs the matrix (and a load's coordinator); 'cpbench-lab load' runs a load agent on each."
  type        = number
  default     = 1

  validation {
    condition     = var.client_count >= 1 && var.client_count <= 16
    error_message = "client_count must be 1-16 (load runs take at most 16 agents)."
  }
}

variable "priority_member" {
  description = "Index of the member with CP leadership priority (it is moved to lead the default group)."
  type        = number
  default     = 0
}

variable "slow_member" {
  description = "Index of the member that network (b) slows down with netem; it must not be the priority member."
  type        = number
  default     = 4
}

variable "slow_delay_ms" {
  description = "Delay netem adds to everything the slow member sends in network (b), in ms (the seed study's: 10)."
  type        = number
  default     = 10
}

variable "ami_id" {
  description = "AMI for every instance; empty looks up the newest official Debian 12 amd64 image."
  type        = string
  default     = ""
}

variable "key_name" {
  description = "Name of an existing EC2 key pair, for SSH from your laptop."
  type        = string
}

variable "ssh_user" {
  description = "Login user of the AMI (Debian's images: admin)."
  type        = string
  default     = "admin"
}

variable "ssh_cidr" {
  description = "CIDR allowed to SSH into the lab from outside, e.g. your laptop's address as 203.0.113.7/32."
  type        = string

  validation {
    # Any prefix shorter than /8 opens SSH to a sixteenth of the internet or more, 0.0.0.0/0 and 0.0.0.0/1 alike.
    condition     = can(cidrhost(var.ssh_cidr, 0)) && can(tonumber(split("/", var.ssh_cidr)[1])) && try(tonumber(split("/", var.ssh_cidr)[1]) >= 8, false)
    error_message = "ssh_cidr must be a CIDR with a prefix of /8 or longer (your own address as a.b.c.d/32 is best)."
  }
}

variable "vpc_cidr" {
  description = "The lab VPC's address range."
  type        = string
  default     = "10.42.0.0/16"
}

variable "subnet_cidr" {
  description = "The members' subnet (private: no public addresses); members get fixed addresses in it (.11, .12, ...)."
  type        = string
  default     = "10.42.1.0/24"
}

variable "client_subnet_cidr" {
  description = "The clients' subnet (public addresses, and the members' NAT gateway); the first client gets .10, others .101 up."
  type        = string
  default     = "10.42.0.0/24"
}

variable "hazelcast_port" {
  description = "Member port; open only between lab hosts."
  type        = number
  default     = 5701
}

variable "cluster_name" {
  description = "Hazelcast cluster name of the lab's members."
  type        = string
  default     = "cpbench-lab"
}

variable "rebalance_period_seconds" {
  description = "Seconds between Hazelcast's moves of leadership toward the priority member (as the local topology: 5)."
  type        = number
  default     = 5
}

variable "member_jvm_options" {
  description = "Heap and other JVM options of the members (as the local topology by default)."
  type        = list(string)
  default     = ["-Xms256m", "-Xmx1g"]
}
