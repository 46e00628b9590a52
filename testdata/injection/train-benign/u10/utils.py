# send the metrics to the collector every minute
