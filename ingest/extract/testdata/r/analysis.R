# Sales analysis.
library(dplyr)
source("helpers.R")

summarise_sales <- function(df) {
  df %>% group_by(region) %>% summarise(total = sum(amount))
}

plot_sales = function(df) {
  ggplot2::ggplot(df) + clean_theme()
}

result <- summarise_sales(load_data("sales.csv"))
