result = some_function(argument_one, argument_two,
                       keyword_one=value_one,
                       keyword_two=[element for element in collection
                                    if element is not None])
value = (first_operand
         + second_operand
         - third_operand)
