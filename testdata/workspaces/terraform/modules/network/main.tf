resource "terraform_data" "subnet" {
  input = {
    cidr = var.cidr_block
    name = var.name
  }
}

output "subnet_id" {
  value = terraform_data.subnet.id
}
