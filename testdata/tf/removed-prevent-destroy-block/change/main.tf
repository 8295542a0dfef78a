removed {
  from = terraform_data.r
}
