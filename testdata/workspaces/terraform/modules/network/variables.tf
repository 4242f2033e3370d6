variable "cidr_block" {
  description = "The network's address range."
  type        = string
}

variable "name" {
  description = "The network's name."
  type        = string
}
