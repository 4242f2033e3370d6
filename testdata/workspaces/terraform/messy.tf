resource "terraform_data"   "scratch" {
input= "unformatted"
}
