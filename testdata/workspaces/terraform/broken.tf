output "missing" {
  value = var.not_declared
}
