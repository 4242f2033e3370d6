variable "region" {
  description = "The region every resource is placed in."
  type        = string
  default     = "eu-west-1"
}

variable "instance_count" {
  description = "How many web servers to run."
  type        = number
  default     = 2
}
