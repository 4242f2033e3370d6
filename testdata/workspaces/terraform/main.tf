locals {
  name_prefix = "shapes-${var.region}"
  common_tags = {
    project = "shapes"
    region  = var.region
  }
}

module "network" {
  source     = "./modules/network"
  cidr_block = "10.0.0.0/16"
  name       = local.name_prefix
}

resource "terraform_data" "web" {
  count = var.instance_count
  input = {
    name   = "${local.name_prefix}-web-${count.index}"
    subnet = module.network.subnet_id
    tags   = local.common_tags
  }
}
