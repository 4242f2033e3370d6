output "web_names" {
  description = "The names of the web servers."
  value       = terraform_data.web[*].output.name
}

output "prefix" {
  value = local.name_prefix
}
